/**
 * One server process for bench/chat-fanout.ts: the real app (buildApp) on an in-memory database, seeded with the
 * one webcast (same id in every process) and the sessions the benchmark's clients will use. Prints one JSON line
 * with the port and session tokens, then serves until killed. Several of these with REDIS_URL set are several nodes.
 */
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openPglite } from '../apps/server/src/platform/db.ts';
import { visitorFor } from '../apps/server/src/modules/lobby/public-access.service.ts';
import { sessionUserFromClaims } from '../apps/server/src/modules/identity/session-user.ts';
import { MEETING_START_OF_FIRST_PARAM } from '../apps/server/src/modules/meetings/meetings.repository.ts';

const meetingId = process.env.BENCH_MEETING_ID!;
const visitors = Number(process.env.BENCH_VISITORS ?? 250);
const config = { ...loadConfig({ ...process.env, PORT: '0', DATA_DIR: path.join(os.tmpdir(), `vm-bench-${process.pid}`), RETENTION_INTERVAL_SECONDS: '0' }), logLevel: 'warn' };
const db = await openPglite(null);
const app = await buildApp({ config, db, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });

const now = Date.now();
await db.query(
  `INSERT INTO meetings (id, title, type, start_time, end_time, created_by, room_id) VALUES ($1, 'Benchmark', 1, $2, $3, 'bench', $4)`,
  [meetingId, new Date(now - 60_000), new Date(now + 3600_000), `bench-room-${meetingId.slice(0, 8)}-xxxxxxxx`],
);
await db.query(
  `INSERT INTO meeting_participants (meeting_id, meeting_start, position, role, display_name, af_id, is_admin)
   VALUES ($1, ${MEETING_START_OF_FIRST_PARAM}, 0, 'PresenterInternal', 'Erik Handläggare', 'erihan', true)`,
  [meetingId],
);
const presenter = await app.deps.sessions.create(
  sessionUserFromClaims({ sub: 'bench-erik', given_name: 'Erik', family_name: 'Handläggare', roles: 'VIDMedarbetare', af_id: 'erihan' }, app.deps.pins),
);
const tokens: string[] = [];
// Names as visitors type them, within the spec's 12 characters (booking spec: "Required, maximum 12 characters"):
// 'Besökare 1000' has 13, which the server rightly refused, so the bench stopped short of 1,000 clients per node.
for (let i = 0; i < visitors; i++) tokens.push((await app.deps.sessions.create(visitorFor(meetingId, `Gäst ${i + 1}`))).token);

process.stdout.write(`${JSON.stringify({ port: (app.server.address() as AddressInfo).port, presenterToken: presenter.token, tokens })}\n`);
// The benchmark asks for the CPU time used so far, to report the server's cost per message independent of load.
process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify({ cpu: process.cpuUsage() })}\n`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void app.close().then(() => process.exit(0)));
