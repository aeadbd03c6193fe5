import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../testing/test-app.ts';
import { ownMeetingBody } from '../testing/request-bodies.ts';
import { freePort } from '../platform/free-port.ts';

/**
 * Fault test: PostgreSQL restarts under the running server. The system PostgreSQL cannot be restarted safely by a
 * test (others use it), so this starts a private cluster of Debian's binaries under /tmp on a free port, runs the
 * real app against it, stops the cluster hard (immediate mode, like a crash) and starts it again. The API must
 * answer again without an app restart, the refusals in between must be clean errors, and no booking is lost.
 * Skipped, saying why, where the binaries or the postgres system user are absent.
 */

const BIN = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'].find((d) => fs.existsSync(path.join(d, 'pg_ctl')));
const asPostgres = (cmd: string, args: string[]) => {
  // initdb and postgres refuse to run as root: run them as the postgres system user when we are root.
  const isRoot = process.getuid?.() === 0;
  return isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const : [cmd, args] as const;
};
const hasPostgresUser = spawnSync('id', ['postgres']).status === 0 || process.getuid?.() !== 0;
const why = !BIN ? 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin' : !hasPostgresUser ? 'no postgres system user to run the cluster as' : null;
if (why) console.warn(`postgres-restart.api.test.ts skipped: ${why}`);

const NOW = '2026-11-20T09:00:00+01:00';
let dir = '';
let port = 0;
let t: TestApp;

function pgCtl(...args: string[]): void {
  const [cmd, argv] = asPostgres(path.join(BIN!, 'pg_ctl'), ['-D', path.join(dir, 'data'), '-w', '-t', '120', ...args]);
  execFileSync(cmd, argv, { stdio: 'pipe' });
}
const start = () => pgCtl('-l', path.join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start');

describe.skipIf(why !== null)('PostgreSQL restart under the running server', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vm-pg-'));
    fs.chmodSync(dir, 0o777);
    port = await freePort();
    const [cmd, argv] = asPostgres(path.join(BIN!, 'initdb'), ['-D', path.join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    execFileSync(cmd, argv, { stdio: 'pipe' });
    start();
    // buildTestApp reads TEST_DATABASE_URL (a fresh schema of that PostgreSQL); point it at our private cluster.
    const saved = process.env.TEST_DATABASE_URL;
    process.env.TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/postgres`;
    try {
      t = await buildTestApp({ clock: testClock(NOW) });
    } finally {
      if (saved === undefined) delete process.env.TEST_DATABASE_URL;
      else process.env.TEST_DATABASE_URL = saved;
    }
  }, 180_000);

  afterAll(async () => {
    await t?.close().catch(() => {});
    try {
      pgCtl('-m', 'immediate', 'stop');
    } catch {
      /* already stopped */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('answers again after the database comes back, without a server restart, and keeps every booking', async () => {
    const erik = await t.as('erik');
    const booked = await erik.post('/api/meeting', ownMeetingBody('Överlever omstart', '2026-11-20T14:00:00+01:00', '2026-11-20T15:00:00+01:00'));
    expect(booked.statusCode, booked.body).toBe(200);
    const id = booked.json().data.id as string;
    expect((await t.app.internal.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    pgCtl('-m', 'immediate', 'stop'); // like a crash: no shutdown checkpoint, every connection cut

    // While it is down: clean refusals, never a hang or a leaked internal, and /readyz says not ready.
    const down = await erik.get(`/api/meeting/${id}`);
    expect(down.statusCode).toBeGreaterThanOrEqual(500);
    expect(down.json()).toMatchObject({ message: 'Något gick fel. Försök igen om en stund.' });
    expect(down.body).not.toMatch(/ECONNREFUSED|terminat|postgres/i);
    expect((await t.app.internal.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

    start();

    // Back: the same app, the same session, the same pool answer within a few tries.
    const deadline = Date.now() + 30_000;
    let again = await erik.get(`/api/meeting/${id}`);
    while (again.statusCode !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      again = await erik.get(`/api/meeting/${id}`);
    }
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.title).toBe('Överlever omstart');
    expect((await t.app.internal.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const more = await erik.post('/api/meeting', ownMeetingBody('Efter omstart', '2026-11-20T16:00:00+01:00', '2026-11-20T17:00:00+01:00'));
    expect(more.statusCode, more.body).toBe(200);
    const week = (await erik.get('/api/meeting/week?from=2026-11-16T00:00:00%2B01:00&to=2026-11-23T00:00:00%2B01:00')).json().data;
    expect(JSON.stringify(week)).toContain('Överlever omstart');
    expect(JSON.stringify(week)).toContain('Efter omstart');
  }, 180_000);
});
