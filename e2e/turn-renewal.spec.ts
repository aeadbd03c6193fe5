import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock, type TestApp, type TestClient } from '../apps/server/src/testing/test-app.ts';
import { insertMeeting } from '../apps/server/src/testing/fixtures.ts';
import { SESSION_COOKIE } from '../apps/server/src/platform/session.ts';
import { tokenFor } from '../apps/server/src/testing/media-call.ts';
import { TURN_CALL_TTL_MS } from '../apps/server/src/modules/media/turn-credentials.ts';
import { listeningTestApp } from './support/listening-app.ts';
import { RawMediaClient } from './support/media.ts';

// Short-lived TURN credentials stay usable through a long call: the server sends fresh ones on the call's `/media`
// socket, and only there (the page applies them to its peer connections: web media/ice-servers.test.ts). Against
// the real embedded Janus in the test network namespace; coturn itself is not needed to see what is handed out
// (e2e/media-reach.spec.ts shows coturn accepting and refusing such credentials). The clock is the test's.
const SECRET = 'delad-hemlighet-för-förnyelse';
let t: TestApp;
let base: string;

beforeAll(async () => {
  ({ t, base } = await listeningTestApp(
    // Today at 08:00 in Stockholm: the six-hour booking below stays within one day whenever the test runs (the
    // booking form refuses an end past midnight, and the test saves the booking again). Janus keeps real time.
    testClock(`${new Date().toISOString().slice(0, 10)}T08:00:00+01:00`),
    { TURN_URLS: 'turn:198.18.0.1:3478?transport=udp', TURN_SECRET: SECRET },
  ));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type IceMessage = { videomote: 'iceServers'; iceServers: { urls: string | string[]; username?: string; credential?: string }[] };
const expiryOf = (m: IceMessage) => Number(m.iceServers.find((s) => s.username)!.username!.split(':')[0]) * 1000;

async function inCall(client: TestClient, meetingId: string): Promise<RawMediaClient> {
  const res = await tokenFor(client, meetingId);
  expect(res.statusCode, res.body).toBe(200);
  const raw = await RawMediaClient.open(`${base.replace('http', 'ws')}/media/${meetingId}?token=${encodeURIComponent(res.json().data.tokenData.token as string)}`, `${SESSION_COOKIE}=${client.cookies[SESSION_COOKIE]}`);
  await raw.waitFor((m) => m.videomote === 'connected');
  return raw;
}

const iceMessages = (raw: RawMediaClient) => raw.own.filter((m) => m.videomote === 'iceServers') as IceMessage[];

describe('TURN credentials through a long call', () => {
  it('come fresh on the socket at connect and before they expire, hours into the call; a removed participant gets none', async () => {
    const m = await insertMeeting(t.db, t.app.deps.pins, {
      type: 0,
      start: new Date(t.clock.now().getTime() - 60_000),
      end: new Date(t.clock.now().getTime() + 6 * 3600_000),
      participants: [
        { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
        { persona: 'jonna', role: 'JobSeeker' },
      ],
    });
    const erik = await inCall(await t.as('erik'), m.id);
    const jonna = await inCall(await t.as('jonna'), m.id);
    await erik.waitFor((x) => x.videomote === 'iceServers');
    const first = iceMessages(erik)[0]!;
    expect(first.iceServers.find((s) => s.username)!.username).toMatch(new RegExp(`:${m.participantIds[0]}$`));
    expect(expiryOf(first)).toBeLessThanOrEqual(t.clock.now().getTime() + TURN_CALL_TTL_MS);

    // Nothing new within the same step; then, step by step for five hours, a renewal before each expiry.
    expect(t.app.media.renewTurn()).toBe(0);
    let held = expiryOf(first);
    for (let hour = 1; hour <= 5; hour++) {
      t.clock.advance(TURN_CALL_TTL_MS / 2);
      if (hour === 2) {
        // Jonna is taken off the booking: her socket closes, and nothing renews her credentials after that.
        const current = (await (await t.as('erik')).get(`/api/meeting/${m.id}`)).json().data;
        const res = await (await t.as('erik')).put('/api/meeting', { ...current, participants: current.participants.filter((p: { role: string }) => p.role !== 'JobSeeker') });
        expect(res.statusCode, res.body).toBe(200);
        await jonna.closed();
      }
      const before = iceMessages(erik).length;
      // Both sockets in the first hour; Erik's alone once Jonna's is closed.
      expect(t.app.media.renewTurn()).toBe(hour < 2 ? 2 : 1);
      await expect.poll(() => iceMessages(erik).length).toBe(before + 1);
      const renewed = iceMessages(erik).at(-1)!;
      // Sent while the held ones are still valid, and valid for at least half the lifetime from now.
      expect(t.clock.now().getTime()).toBeLessThan(held);
      expect(expiryOf(renewed)).toBeGreaterThanOrEqual(t.clock.now().getTime() + TURN_CALL_TTL_MS / 2);
      held = expiryOf(renewed);
    }
    expect(iceMessages(jonna).length).toBeLessThanOrEqual(2);
    expect(expiryOf(iceMessages(jonna).at(-1)!)).toBeLessThan(t.clock.now().getTime());
    erik.close();
  }, 120_000);
});
