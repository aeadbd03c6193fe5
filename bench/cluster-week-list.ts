/**
 * Does adding an app node add capacity? The week list (GET /api/meeting/week, the busiest read) at saturation through
 * the TLS proxy of the cluster topology (scripts/cluster/topology.ts): first with both app nodes behind it, then with
 * one of them drained (SIGTERM), same data, same 50 keep-alive connections. Prints the throughput ratio and the CPU
 * each process used in each run (from /proc/{pid}/stat), so the reader sees where the limit is: on a 2-core machine
 * the proxy, two nodes, PostgreSQL and the load generator share two cores, and the ratio is bounded by that.
 *
 * Usage: npm run bench:cluster (inside a private network namespace, as scripts/cluster.sh runs; PostgreSQL through
 * its Unix socket: BENCH_DATABASE_URL, default postgres://postgres@/test?host=/var/run/postgresql; BENCH_REQUESTS).
 * The run uses its own schema and drops it afterwards. It also prints when and where it ran and under what load: the
 * load average before and after each run, and the CPU the rest of the machine used meanwhile (this machine is shared,
 * and a figure taken beside other work is not one taken alone).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openPostgres } from '../apps/server/src/platform/db.ts';
import { startOfLocalDay } from '../packages/contract/src/meeting-rules.ts';
import { cpuSeconds, startCluster, type Cluster } from '../scripts/cluster/topology.ts';
import { runLoad, type LoadRequest } from './http-load.ts';
import { benchSessions, benchWeeks, seedMeetings, weekPath } from './meetings-api.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@/test?host=/var/run/postgresql';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const WARMUP = 2_000;
const CONNECTIONS = 50;

interface Run {
  label: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  seconds: number;
  /** CPU seconds per process (name → s) during the run, and the load generator's. */
  cpu: Record<string, number>;
  /** CPU seconds the rest of the machine used in the same window (all busy time minus the processes above). */
  otherCpu: number;
  /** That window's length (warm-up included, as in `cpu`), seconds. */
  window: number;
  /** One-minute load average before and after the run. */
  load: [number, number];
}

/** The whole machine's busy CPU seconds so far (/proc/stat: user, nice, system, irq, softirq, steal). */
function machineBusySeconds(): number {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (f[0]! + f[1]! + f[2]! + f[5]! + f[6]! + f[7]!) / 100;
}

const load1 = () => Math.round(os.loadavg()[0]! * 10) / 10;

/** The machine's PostgreSQL backends (shared with whatever else uses it, so a ceiling, not this run alone). */
function postgresPids(): number[] {
  return fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  }).map(Number);
}

function cpuOf(cluster: Cluster): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of cluster.processes()) m.set(p.name, cpuSeconds(p.pid));
  let pg = 0;
  for (const pid of postgresPids()) pg += (() => {
    try {
      return cpuSeconds(pid);
    } catch {
      return 0;
    }
  })();
  m.set('postgres', pg);
  return m;
}

async function measure(label: string, cluster: Cluster, requests: LoadRequest[]): Promise<Run> {
  const port = Number(new URL(cluster.url).port);
  const tlsCa = fs.readFileSync(cluster.caFile, 'utf8');
  const loadBefore = load1();
  const busyBefore = machineBusySeconds();
  const windowStart = Date.now();
  const before = cpuOf(cluster);
  const result = await runLoad({ port, tlsCa, connections: CONNECTIONS, requests, warmup: WARMUP });
  const after = cpuOf(cluster);
  const busy = machineBusySeconds() - busyBefore;
  const window = Math.round((Date.now() - windowStart) / 100) / 10;
  const cpu: Record<string, number> = {};
  for (const [name, s] of after) if (before.has(name)) cpu[name] = Math.round((s - before.get(name)!) * 100) / 100;
  cpu['load generator'] = Math.round(((result.clientCpuMsPerRequest * requests.length) / 1000) * 100) / 100;
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const pct = (p: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) * 10) / 10;
  // Same window as the processes' figures (warm-up included in both).
  const ours = Object.values(cpu).reduce((a, b) => a + b, 0);
  const otherCpu = Math.max(0, Math.round((busy - ours) * 10) / 10);
  return { label, reqPerSec: Math.round(REQUESTS / result.seconds), p50: pct(50), p99: pct(99), errors: result.errors, seconds: Math.round(result.seconds * 10) / 10, cpu, otherCpu, window, load: [loadBefore, load1()] };
}

export async function benchClusterWeekList(): Promise<{ two: Run; one: Run; ratio: number }> {
  const schema = `bench_cluster_${crypto.randomBytes(6).toString('hex')}`;
  const pinKey = crypto.randomBytes(32).toString('base64');
  const cluster = await startCluster({ databaseUrl, schema, pinKey, iceEnforce: process.env.JANUS_ICE_ENFORCE ?? null, log: () => {} });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-bench-cluster-'));
  const db = openPostgres(databaseUrl, { schema, max: 2 });
  // An app in this process only to sign the bench users in (same database and PIN key as the nodes); it never listens.
  const app = await buildApp({ config: { ...loadConfig({ DATA_DIR: dataDir, PIN_KEY: pinKey }), logLevel: 'silent' }, db, logger: false });
  try {
    const firstDay = startOfLocalDay(new Date(), 1);
    await seedMeetings(db, firstDay);
    const xsrf = crypto.randomBytes(16).toString('base64url');
    const cookies = (await benchSessions(app, xsrf)).flat();
    const weeks = benchWeeks(firstDay);
    const requests: LoadRequest[] = Array.from({ length: WARMUP + REQUESTS }, (_, i) => ({
      method: 'GET',
      path: weekPath(weeks[Math.floor(i / cookies.length) % weeks.length]!),
      headers: { cookie: cookies[i % cookies.length]!, 'x-xsrf-token': xsrf },
    }));
    const two = await measure('two app nodes', cluster, requests);
    // One node drained as for an upgrade; the proxy's health check takes it out within about two seconds.
    await cluster.nodes[1]!.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 3_000));
    const one = await measure('one app node', cluster, requests);
    return { two, one, ratio: Math.round((two.reqPerSec / one.reqPerSec) * 100) / 100 };
  } finally {
    await app.close();
    await db.close();
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { two, one, ratio } = await benchClusterWeekList();
  console.log(`week list through the TLS proxy, ${REQUESTS} requests at saturation over ${CONNECTIONS} connections`);
  console.log(`taken ${new Date().toISOString()} on ${os.hostname()}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Linux ${os.release()}`);
  for (const r of [two, one]) {
    const cpu = Object.entries(r.cpu).map(([name, s]) => `${name} ${s} s`).join(', ');
    console.log(`${r.label.padEnd(14)} ${String(r.reqPerSec).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  in ${r.seconds} s  cpu: ${cpu}`);
    console.log(
      `${''.padEnd(14)} cpu figures over ${r.window} s (warm-up included); beside them the rest of the machine used ${r.otherCpu} CPU s of ` +
        `${Math.round(r.window * os.cpus().length)}; load average ${r.load[0]} before, ${r.load[1]} after`,
    );
  }
  console.log(`throughput ratio two nodes / one node: ${ratio}`);
  console.log(`BENCH_JSON ${JSON.stringify({ bench: 'cluster-week-list', two, one, ratio })}`);
  process.exit(0);
}
