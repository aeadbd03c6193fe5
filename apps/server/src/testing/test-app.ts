import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../platform/config.ts';
import { openPglite, openPostgres, type Db } from '../platform/db.ts';
import { migratedClusterTarball } from './migrated-cluster.ts';
import { SESSION_COOKIE, type SessionUser } from '../platform/session.ts';
import { personaByKey, type Persona } from '../modules/identity/personas.ts';
import { sessionUserFromClaims } from '../modules/identity/session-user.ts';

/**
 * Builds the real app on a real database for API tests: PGlite in memory by default, or, with TEST_DATABASE_URL
 * set (CI's PostgreSQL run), a fresh schema of that PostgreSQL that is dropped afterwards.
 */
export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  close(): Promise<void>;
  /** Empties every table (not the migrations), so one app can serve a whole test file quickly. */
  reset(): Promise<void>;
  /** A logged-in client for a persona (or any session user), with anti-forgery set up. */
  as(who: Persona['key'] | SessionUser): Promise<TestClient>;
  /** A client with no session but a valid anti-forgery pair. */
  anonymous(): TestClient;
}

export interface TestClock {
  now(): Date;
  set(date: Date | string): void;
  advance(ms: number): void;
}

export function testClock(start: Date | string = new Date()): TestClock {
  let t = new Date(start).getTime();
  return { now: () => new Date(t), set: (d) => void (t = new Date(d).getTime()), advance: (ms) => void (t += ms) };
}

export interface TestClient {
  user: SessionUser | null;
  cookies: Record<string, string>;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, data?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, data?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

export async function buildTestApp(
  options: { clock?: TestClock; env?: Record<string, string>; logStream?: { write(line: string): void } } = {},
): Promise<TestApp> {
  const clock = options.clock ?? testClock();
  const dataDir = path.join(os.tmpdir(), `videomote-test-${crypto.randomUUID()}`);
  // Silent, unless the test reads the logs: then everything down to debug, so that a leak would show.
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, SESSION_MINUTES: '60', RETENTION_INTERVAL_SECONDS: '0', ...options.env }),
    logLevel: options.logStream ? 'debug' : 'silent',
  };
  const url = process.env.TEST_DATABASE_URL;
  let db: Db;
  let dropSchema: (() => Promise<void>) | null = null;
  if (url) {
    const schema = `t_${crypto.randomUUID().replace(/-/g, '')}`;
    const admin = openPostgres(url, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    db = openPostgres(url, { schema, max: 5 });
    dropSchema = async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    };
  } else {
    db = await openPglite(null, { loadDataDir: await migratedClusterTarball() });
  }
  const app = await buildApp({ config, db, now: clock.now, ...(options.logStream ? { logStream: options.logStream } : { logger: false }) });
  await app.ready();

  const client = (user: SessionUser | null, cookies: Record<string, string>): TestClient => {
    const request = (opts: InjectOptions) =>
      app.inject({
        ...opts,
        cookies: { ...cookies, ...(opts.cookies ?? {}) },
        headers: { 'x-xsrf-token': cookies['XSRF-TOKEN'] ?? '', ...(opts.headers ?? {}) },
      });
    return {
      user,
      cookies,
      request,
      get: (url) => request({ method: 'GET', url }),
      post: (url, data) => request({ method: 'POST', url, payload: data === undefined ? undefined : { data } }),
      put: (url, data) => request({ method: 'PUT', url, payload: data === undefined ? undefined : { data } }),
      delete: (url) => request({ method: 'DELETE', url }),
    };
  };
  const xsrf = crypto.randomBytes(16).toString('base64url');

  return {
    app,
    db,
    clock,
    async close() {
      await app.close();
      await db.close();
      await dropSchema?.();
    },
    async reset() {
      const tables = await db.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'",
      );
      if (tables.length) await db.query(`TRUNCATE ${tables.map((r) => `"${r.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
    },
    async as(who) {
      let user: SessionUser;
      if (typeof who === 'string') {
        const p = personaByKey(who);
        user = sessionUserFromClaims(
          { sub: `test-${p.key}`, given_name: p.firstName, family_name: p.lastName, roles: p.roles, af_id: p.afId, pin: p.pin },
          app.deps.pins,
        );
      } else {
        user = who;
      }
      const session = await app.deps.sessions.create(user);
      return client(user, { [SESSION_COOKIE]: session.token, 'XSRF-TOKEN': xsrf });
    },
    anonymous: () => client(null, { 'XSRF-TOKEN': xsrf }),
  };
}
