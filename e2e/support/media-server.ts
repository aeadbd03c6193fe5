import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { buildTestApp, testClock, type TestApp, type TestClient } from '../../apps/server/src/testing/test-app.ts';
import { tokenFor } from '../../apps/server/src/testing/media-call.ts';
import { RawMediaClient } from './media.ts';

export interface MediaTestServer {
  readonly t: TestApp;
  /** `ws://127.0.0.1:{port}` */
  readonly base: string;
  /** Gets the client a media token for the meeting and opens `/media/{meetingId}` with it, up to the 'connected' hello. */
  connect(client: TestClient, meetingId: string, displayName?: string): Promise<{ raw: RawMediaClient; hello: Record<string, unknown>; token: string }>;
}

/**
 * The server for tests of the `/media` relay against the real embedded Janus (inside the test network namespace):
 * the real app, listening on a free port, its database emptied before each test.
 */
export function useMediaServer(): MediaTestServer {
  let t: TestApp | undefined;
  let base = '';
  beforeAll(async () => {
    t = await buildTestApp({ clock: testClock(new Date()), env: { JANUS_ICE_ENFORCE: process.env.JANUS_ICE_ENFORCE ?? '' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  beforeEach(async () => t!.reset());
  afterAll(async () => t?.close());
  return {
    get t() {
      return t!;
    },
    get base() {
      return base;
    },
    async connect(client, meetingId, displayName = 'Besökare') {
      const res = await tokenFor(client, meetingId, displayName);
      expect(res.statusCode, res.body).toBe(200);
      const token = res.json().data.tokenData.token as string;
      const cookie = Object.entries(client.cookies).map(([k, v]) => `${k}=${v}`).join('; ');
      const raw = await RawMediaClient.open(`${base}/media/${meetingId}?token=${encodeURIComponent(token)}`, cookie);
      const hello = await raw.waitFor((m) => m.videomote === 'connected');
      return { raw, hello, token };
    },
  };
}
