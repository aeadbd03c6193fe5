/**
 * Meetings API under load: 10,000 meetings in PostgreSQL, 50 concurrent keep-alive connections (each its own
 * signed-in caseworker) against the real server over loopback HTTP. Measures the week list and booking.
 * Target: p99 < 50 ms for both.
 *
 * Usage: npm run bench:meetings   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *        BENCH_MEETINGS, BENCH_CONNECTIONS, BENCH_WEEK_REQUESTS, BENCH_CREATE_REQUESTS to change the sizes)
 * The run uses its own schema and drops it afterwards.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openPostgres } from '../apps/server/src/platform/db.ts';
import { SESSION_COOKIE } from '../apps/server/src/platform/session.ts';
import { sessionUserFromClaims } from '../apps/server/src/modules/identity/session-user.ts';
import { luhnOk } from '../packages/contract/src/personnummer.ts';
import { isoWeekRange, isoWeekOf, startOfLocalDay } from '../packages/contract/src/meeting-rules.ts';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MEETINGS = Number(process.env.BENCH_MEETINGS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WEEK_REQUESTS = Number(process.env.BENCH_WEEK_REQUESTS ?? 5_000);
const CREATE_REQUESTS = Number(process.env.BENCH_CREATE_REQUESTS ?? 2_000);
const WEEKS = 20;
/** Caseworkers the meetings are spread over (each connection signs in as one of them). */
const USERS = 50;

export interface Figures {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  /** CPU of this process (server and load generator together) per request, and the machine's load meanwhile. */
  cpuMsPerRequest: number;
  loadAverage: number;
}

function pinFor(i: number): string {
  const date = `19${String(50 + (i % 40)).padStart(2, '0')}${String((i % 12) + 1).padStart(2, '0')}${String((i % 28) + 1).padStart(2, '0')}`;
  const serial = String(100 + (i % 900));
  for (let d = 0; d < 10; d++) if (luhnOk(date.slice(2) + serial + d)) return `${date}-${serial}${d}`;
  throw new Error('unreachable');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function run(
  name: string,
  total: number,
  agent: http.Agent,
  port: number,
  request: (i: number) => { method: string; path: string; body?: string; cookie: string; xsrf: string },
): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const cpu0 = process.cpuUsage();
  const started = process.hrtime.bigint();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const r = request(i);
      const t0 = process.hrtime.bigint();
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: r.method,
            path: r.path,
            agent,
            headers: { cookie: r.cookie, 'x-xsrf-token': r.xsrf, ...(r.body ? { 'content-type': 'application/json' } : {}) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(r.body);
      });
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: total,
    errors,
    seconds: Math.round(seconds * 100) / 100,
    reqPerSec: Math.round(total / seconds),
    p50: Math.round(percentile(latencies, 50) * 10) / 10,
    p99: Math.round(percentile(latencies, 99) * 10) / 10,
    cpuMsPerRequest: Math.round(((cpu.user + cpu.system) / 1000 / total) * 100) / 100,
    loadAverage: Math.round(os.loadavg()[0]! * 10) / 10,
  };
}

export async function benchMeetingsApi(): Promise<Figures[]> {
  const schema = `bench_meetings_${crypto.randomBytes(6).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = openPostgres(url, { schema, max: 20 });
  const config = { ...loadConfig({ DATA_DIR: path.join(os.tmpdir(), `videomote-bench-${schema}`) }), logLevel: 'silent' };
  const app = await buildApp({ config, db, logger: false });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;

    // 10,000 meetings over the coming weeks, each with a caseworker (one of 50, the bench users), a job seeker and
    // an interpreter; seeded in SQL because the booking path is measured below, not here.
    const firstDay = startOfLocalDay(new Date(), 1);
    await db.query(
      `INSERT INTO meetings (title, type, start_time, end_time, created_by, room_id)
       SELECT 'Möte ' || g, 0, $1::timestamptz + ((g % ($2::int * 5)) * interval '1 day' * 7 / 5) + ((g % 8) * interval '1 hour'),
              $1::timestamptz + ((g % ($2::int * 5)) * interval '1 day' * 7 / 5) + ((g % 8) * interval '1 hour') + interval '45 minutes',
              'bench', md5(random()::text || g) || md5(g::text)
       FROM generate_series(1, $3::int) g`,
      [new Date(firstDay.getTime() + 9 * 3_600_000), WEEKS, MEETINGS],
    );
    await db.query(
      `INSERT INTO meeting_participants (meeting_id, position, role, display_name, af_id, is_admin)
       SELECT id, 0, 'EmploymentOfficer', 'Handläggare', 'bench' || lpad(((row_number() OVER ()) % ${USERS})::text, 3, '0'), true FROM meetings`,
    );
    await db.query(
      `INSERT INTO meeting_participants (meeting_id, position, role, display_name, pin_hash, pin_encrypted)
       SELECT id, 1, 'JobSeeker', 'Sökande', md5(id::text), 'x' FROM meetings`,
    );
    await db.query(
      `INSERT INTO meeting_participants (meeting_id, position, role, display_name, pin_hash, pin_encrypted)
       SELECT id, 2, 'Interpreter', 'Tolk', md5(id::text || 't'), 'x' FROM meetings`,
    );
    await db.query('ANALYZE');

    const xsrf = crypto.randomBytes(16).toString('base64url');
    const cookies: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const user = sessionUserFromClaims(
        { sub: `bench-${i}`, given_name: 'Bench', family_name: `User ${i}`, roles: 'VIDMedarbetare', af_id: `bench${String(i).padStart(3, '0')}` },
        app.deps.pins,
      );
      const session = await app.deps.sessions.create(user);
      cookies.push(`${SESSION_COOKIE}=${session.token}; XSRF-TOKEN=${xsrf}`);
    }
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const thisWeek = isoWeekOf(firstDay);
    const weekRanges = Array.from({ length: WEEKS }, (_, k) => {
      const monday = isoWeekRange(thisWeek.year, thisWeek.week).from;
      const w = isoWeekOf(new Date(monday.getTime() + (k * 7 + 3) * 86_400_000));
      return isoWeekRange(w.year, w.week);
    });

    // Warm up the JIT and the pool, then measure.
    await run('warm-up', 500, agent, port, (i) => ({ method: 'GET', path: weekPath(weekRanges[i % WEEKS]!), cookie: cookies[i % USERS]!, xsrf }));
    const week = await run('GET /api/meeting/week', WEEK_REQUESTS, agent, port, (i) => ({
      method: 'GET',
      path: weekPath(weekRanges[Math.floor(i / USERS) % WEEKS]!),
      cookie: cookies[i % USERS]!,
      xsrf,
    }));
    const create = await run('POST /api/meeting', CREATE_REQUESTS, agent, port, (i) => {
      const day = new Date(firstDay.getTime() + ((i % 60) + 1) * 86_400_000 + 10 * 3_600_000);
      return {
        method: 'POST',
        path: '/api/meeting',
        cookie: cookies[i % USERS]!,
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
    });
    agent.destroy();
    return [week, create];
  } finally {
    await app.close();
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  }
}

const weekPath = (r: { from: Date; to: Date }) => `/api/meeting/week?from=${encodeURIComponent(r.from.toISOString())}&to=${encodeURIComponent(r.to.toISOString())}`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchMeetingsApi();
  console.log(`meetings API, ${MEETINGS} meetings in PostgreSQL, ${CONNECTIONS} concurrent connections, ${os.cpus().length} CPUs (target p99 < 50 ms)`);
  for (const f of figures) {
    console.log(
      `${f.name.padEnd(24)} ${String(f.requests).padStart(6)} req  ${String(f.reqPerSec).padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  errors ${f.errors}  cpu ${f.cpuMsPerRequest} ms/req  load ${f.loadAverage}  ${f.p99 < 50 ? 'OK' : 'OVER TARGET'}`,
    );
  }
  // One machine-readable line for `npm run bench` (bench/run-all.ts).
  console.log(`BENCH_JSON ${JSON.stringify({ bench: 'meetings', figures })}`);
  process.exit(0);
}
