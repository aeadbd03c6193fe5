import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { AddressInfo } from 'node:net';
import { buildTestApp, testClock, type TestApp } from './test-app.ts';

export interface FileTestApp extends TestApp {
  /** `127.0.0.1:{port}` of the listening server (only with `listen: true`). */
  readonly host: string;
}

/**
 * The one real app an API test file shares (see buildTestApp): built before the file's first test, emptied before
 * each test with its clock set back to `now` (real time when `now` is left out), closed after the last test.
 * The answer stands for that app and may be read inside tests and hooks only, as it exists from beforeAll on.
 * `listen: true` also serves it on a free loopback port, for tests with real sockets.
 */
export function useTestApp(
  now?: string,
  options: { env?: Record<string, string>; listen?: boolean; logStream?: { write(line: string): void } } = {},
): FileTestApp {
  let built: TestApp | undefined;
  let host = '';
  const current = (): TestApp => {
    if (!built) throw new Error('useTestApp: the app is built in beforeAll; use it inside a test or a hook');
    return built;
  };
  beforeAll(async () => {
    built = await buildTestApp({ clock: testClock(now), env: options.env, logStream: options.logStream });
    if (options.listen) {
      await built.app.listen({ port: 0, host: '127.0.0.1' });
      host = `127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    }
  });
  beforeEach(async () => {
    await current().reset();
    current().clock.set(now ?? new Date());
  });
  afterAll(async () => built?.close());
  return {
    get app() {
      return current().app;
    },
    get db() {
      return current().db;
    },
    get clock() {
      return current().clock;
    },
    get host() {
      return host;
    },
    close: () => current().close(),
    reset: () => current().reset(),
    as: (who) => current().as(who),
    anonymous: () => current().anonymous(),
  };
}
