import { buildTestApp, type TestApp, type TestClock } from '../../apps/server/src/testing/test-app.ts';
import { freePort } from './server.ts';

/**
 * The server built in-process (real database, the test's clock, the embedded Janus of the test network namespace)
 * and listening on a free loopback port, for specs that speak to `/media` and the API over real sockets. PUBLIC_URL
 * and PORT are the address it listens on (the relay checks a socket's origin against it); JANUS_ICE_ENFORCE is
 * passed on as the namespace sets it. `env` adds what the spec tests (caps, TURN, timers).
 */
export async function listeningTestApp(clock: TestClock, env: Record<string, string> = {}): Promise<{ t: TestApp; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({
    clock,
    env: { JANUS_ICE_ENFORCE: process.env.JANUS_ICE_ENFORCE ?? '', PUBLIC_URL: base, PORT: String(port), ...env },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base };
}
