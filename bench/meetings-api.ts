/**
 * Meetings API under load: 10,000 meetings in PostgreSQL, 50 concurrent keep-alive connections (each its own
 * signed-in caseworker) from a separate load-generator process against the real server over loopback HTTP. Measures the week list and booking.
 * Target: p99 < 50 ms for both.
 *
 * Usage: npm run bench:meetings   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; BENCH_POOL, database connections;
 *        BENCH_MEETINGS, BENCH_CONNECTIONS, BENCH_WEEK_REQUESTS, BENCH_CREATE_REQUESTS to change the sizes)
 * The run uses its own schema and drops it afterwards.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openPostgres, type Db } from '../apps/server/src/platform/db.ts';
import { SESSION_COOKIE } from '../apps/server/src/platform/session.ts';
import { sessionUserFromClaims } from '../apps/server/src/modules/identity/session-user.ts';
import { runLoad, type LoadRequest } from './http-load.ts';
import { luhnOk } from '../packages/contract/src/personnummer.ts';
import { isoWeekRange, isoWeekOf, startOfLocalDay } from '../packages/contract/src/meeting-rules.ts';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MEETINGS = Number(process.env.BENCH_MEETINGS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WEEK_REQUESTS = Number(process.env.BENCH_WEEK_REQUESTS ?? 20_000);
const CREATE_REQUESTS = Number(process.env.BENCH_CREATE_REQUESTS ?? 15_000);
/** Requests sent before each measurement over the same connections (see LoadPlan.warmup). */
const WARMUP_REQUESTS = 2_000;
const WEEKS = 20;
/** Caseworkers the meetings are spread over (each connection signs in as one of them). */
const USERS = 50;
/**
 * Signed-in sessions of each caseworker. Bookings are rate-limited per session (120 a minute, platform/rate-limits.ts),
 * and the two booking runs send more than 50 sessions may: like a caseworker with the app open in several tabs.
 */
const SESSIONS_PER_USER = 8;

export interface Figures {
  name: string;
  /** 'saturation': the connections send back to back; 'fixed rate': an even offered load (open loop). */
  mode: 'saturation' | 'fixed rate';
  requests: number;
  errors: number;
  seconds: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  /**
   * CPU of the server's process per request, warm-up included (the load generator runs in its own), and the
   * machine's load meanwhile.
   */
  cpuMsPerRequest: number;
  /** CPU of the load generator per request: on a small machine it competes with the server. */
  clientCpuMsPerRequest: number;
  loadAverage: number;
}

function pinFor(i: number): string {
  const date = `19${String(50 + (i % 40)).padStart(2, '0')}${String((i % 12) + 1).padStart(2, '0')}${String((i % 28) + 1).padStart(2, '0')}`;
  const serial = String(100 + (i % 900));
  for (let d = 0; d < 10; d++) if (luhnOk(date.slice(2) + serial + d)) return `${date}-${serial}${d}`;
  throw new Error('unreachable');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * Runs `total` measured requests, after WARMUP_REQUESTS unmeasured ones, from a separate load-generator process over
 * CONNECTIONS keep-alive connections.
 */
async function run(
  name: string,
  total: number,
  port: number,
  request: (i: number) => { method: string; path: string; body?: string; cookie: string; xsrf: string },
  rate?: number,
): Promise<Figures> {
  const requests: LoadRequest[] = Array.from({ length: WARMUP_REQUESTS + total }, (_, i) => {
    const r = request(i);
    return {
      method: r.method,
      path: r.path,
      body: r.body,
      headers: { cookie: r.cookie, 'x-xsrf-token': r.xsrf, ...(r.body ? { 'content-type': 'application/json' } : {}) },
    };
  });
  const cpu0 = process.cpuUsage();
  const { latencies, errors, seconds, clientCpuMsPerRequest } = await runLoad({ port, connections: CONNECTIONS, requests, rate, warmup: WARMUP_REQUESTS });
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return {
    name,
    mode: rate ? 'fixed rate' : 'saturation',
    requests: total,
    errors,
    seconds: Math.round(seconds * 100) / 100,
    reqPerSec: Math.round(total / seconds),
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    cpuMsPerRequest: Math.round(((cpu.user + cpu.system) / 1000 / requests.length) * 100) / 100,
    clientCpuMsPerRequest: Math.round(clientCpuMsPerRequest * 100) / 100,
    loadAverage: Math.round(os.loadavg()[0]! * 10) / 10,
  };
}

export async function benchMeetingsApi(): Promise<Figures[]> {
  const schema = `bench_meetings_${crypto.randomBytes(6).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  // The server's own pool size unless BENCH_POOL says otherwise.
  const db = openPostgres(url, { schema, max: process.env.BENCH_POOL ? Number(process.env.BENCH_POOL) : undefined });
  const config = { ...loadConfig({ DATA_DIR: path.join(os.tmpdir(), `videomote-bench-${schema}`), SESSION_CACHE_SECONDS: process.env.SESSION_CACHE_SECONDS }), logLevel: 'silent' };
  const app = await buildApp({ config, db, logger: false });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;

    const firstDay = startOfLocalDay(new Date(), 1);
    await seedMeetings(db, firstDay);
    const xsrf = crypto.randomBytes(16).toString('base64url');
    const sessions = await benchSessions(app, xsrf);
    /** Request i comes from caseworker i mod USERS, in turn from each of their sessions. */
    const cookieOf = (i: number) => sessions[i % USERS]![Math.floor(i / USERS) % SESSIONS_PER_USER]!;
    const weekRanges = benchWeeks(firstDay);

    const weekRequest = (i: number) => ({
      method: 'GET',
      path: weekPath(weekRanges[Math.floor(i / USERS) % WEEKS]!),
      cookie: cookieOf(i),
      xsrf,
    });
    let booked = 0;
    const createRequest = (i: number) => {
      i = booked++; // every booking distinct, across both runs
      const day = new Date(firstDay.getTime() + ((i % 60) + 1) * 86_400_000 + 10 * 3_600_000);
      return {
        method: 'POST',
        path: '/api/meeting',
        cookie: cookieOf(i),
        xsrf,
        body: JSON.stringify({
          data: {
            title: `Bokning ${i}`,
            type: 0,
            startTime: day.toISOString(),
            endTime: new Date(day.getTime() + 3_600_000).toISOString(),
            participants: [
              { currentUser: true, role: 'EmploymentOfficer' },
              { role: 'JobSeeker', displayName: 'Sökande', pin: pinFor(i) },
              { role: 'Interpreter', displayName: 'Tolk', pin: pinFor(i + 7919) },
            ],
          },
        }),
      };
    };
    // Each call at saturation, then offered at half the throughput just reached, evenly: the latency a user meets
    // while the server is busy but not at its limit (at saturation, latency is only the 50 connections queueing).
    // The week list runs before any booking: the bookings land in the same weeks and would lengthen its answers.
    const half = (f: Figures) => Math.max(50, Math.round(f.reqPerSec / 2 / 50) * 50);
    const week = await run('GET /api/meeting/week', WEEK_REQUESTS, port, weekRequest);
    const weekSteady = await run('GET /api/meeting/week', WEEK_REQUESTS, port, weekRequest, half(week));
    const create = await run('POST /api/meeting', CREATE_REQUESTS, port, createRequest);
    const createSteady = await run('POST /api/meeting', CREATE_REQUESTS, port, createRequest, half(create));
    return [week, create, weekSteady, createSteady];
  } finally {
    await app.close();
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  }
}


/**
 * 10,000 meetings over the coming weeks, each with a caseworker (one of the 50 bench users, so each has ~10 meetings
 * a week, two a weekday), a job seeker and an interpreter; seeded in SQL because the booking path is measured, not
 * this. Shared with bench/cluster-week-list.ts.
 */
export async function seedMeetings(db: Db, firstDay: Date): Promise<void> {
  await db.query(
    `INSERT INTO meetings (title, type, start_time, end_time, created_by, room_id)
     SELECT 'Möte ' || g, 0, slot, slot + interval '45 minutes', 'bench' || lpad((g % $4::int)::text, 3, '0'), md5(random()::text || g) || md5(g::text)
     FROM generate_series(1, $3::int) g,
          LATERAL (SELECT $1::timestamptz + (((g / $4::int) % ($2::int * 5)) * interval '1 day' * 7 / 5)
                                          + (((g / $4::int / ($2::int * 5)) % 8) * interval '1 hour') AS slot) s`,
    [new Date(firstDay.getTime() + 9 * 3_600_000), WEEKS, MEETINGS, USERS],
  );
  await db.query(
    `INSERT INTO meeting_participants (meeting_id, meeting_start, position, role, display_name, af_id, is_admin)
     SELECT id, start_time, 0, 'EmploymentOfficer', 'Handläggare', created_by, true FROM meetings`,
  );
  await db.query(
    `INSERT INTO meeting_participants (meeting_id, meeting_start, position, role, display_name, pin_hash, pin_encrypted)
     SELECT id, start_time, 1, 'JobSeeker', 'Sökande', md5(id::text), 'x' FROM meetings`,
  );
  await db.query(
    `INSERT INTO meeting_participants (meeting_id, meeting_start, position, role, display_name, pin_hash, pin_encrypted)
     SELECT id, start_time, 2, 'Interpreter', 'Tolk', md5(id::text || 't'), 'x' FROM meetings`,
  );
  // What autovacuum does to a live database: statistics for the planner, visibility for index-only scans.
  await db.query('VACUUM ANALYZE meetings');
  await db.query('VACUUM ANALYZE meeting_participants');
}

/** SESSIONS_PER_USER signed-in sessions of each of the USERS caseworkers, as `cookie` header values. */
export async function benchSessions(app: FastifyInstance, xsrf: string): Promise<string[][]> {
  const sessions: string[][] = [];
  for (let i = 0; i < USERS; i++) {
    const user = sessionUserFromClaims(
      { sub: `bench-${i}`, given_name: 'Bench', family_name: `User ${i}`, roles: 'VIDMedarbetare', af_id: `bench${String(i).padStart(3, '0')}` },
      app.deps.pins,
    );
    sessions.push([]);
    for (let k = 0; k < SESSIONS_PER_USER; k++) {
      const session = await app.deps.sessions.create(user);
      sessions[i]!.push(`${SESSION_COOKIE}=${session.token}; XSRF-TOKEN=${xsrf}`);
    }
  }
  return sessions;
}

/** The WEEKS weeks the seeded meetings lie in. */
export function benchWeeks(firstDay: Date): { from: Date; to: Date }[] {
  const thisWeek = isoWeekOf(firstDay);
  return Array.from({ length: WEEKS }, (_, k) => {
    const monday = isoWeekRange(thisWeek.year, thisWeek.week).from;
    const w = isoWeekOf(new Date(monday.getTime() + (k * 7 + 3) * 86_400_000));
    return isoWeekRange(w.year, w.week);
  });
}

export const weekPath = (r: { from: Date; to: Date }) => `/api/meeting/week?from=${encodeURIComponent(r.from.toISOString())}&to=${encodeURIComponent(r.to.toISOString())}`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchMeetingsApi();
  console.log(`meetings API, ${MEETINGS} meetings in PostgreSQL, ${CONNECTIONS} concurrent connections, ${os.cpus().length} CPUs (target p99 < 50 ms)`);
  for (const f of figures) {
    console.log(
      `${f.name.padEnd(24)} ${f.mode.padEnd(10)} ${String(f.requests).padStart(6)} req  ${String(f.reqPerSec).padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  errors ${f.errors}  cpu ${f.cpuMsPerRequest} ms/req (client ${f.clientCpuMsPerRequest})  load ${f.loadAverage}  ${f.p99 < 50 ? 'OK' : 'OVER TARGET'}`,
    );
  }
  // One machine-readable line for `npm run bench` (bench/run-all.ts).
  console.log(`BENCH_JSON ${JSON.stringify({ bench: 'meetings', figures })}`);
  process.exit(0);
}
