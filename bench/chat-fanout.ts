/**
 * Chat fan-out in one webcast: 500 connected chat sockets, messages sent at a steady rate by some of them, every
 * message delivered to all 500. Prints p50/p99/max delivery latency (send → arrival at each client) and the
 * messages and deliveries per second. Target: p99 < 100 ms.
 *
 * Scenarios: bare `ws` (bench/chat-fanout-bare-server.ts, the baseline: the product's p99 should be at most twice its
 * p99 at the same load); one server process in-memory; then two server processes through Redis (250 clients on each), when
 * Redis answers at BENCH_REDIS_URL (default redis://127.0.0.1:6379). The servers are real child processes running
 * the real app (bench/chat-fanout-server.ts); the 500 clients share this one process, so their own event-loop
 * delay is part of the figures (a conservative measure on a 2-core machine).
 *
 * Usage: npm run bench:chat   (BENCH_CLIENTS, BENCH_SECONDS, BENCH_RATES="20,100" to change the load)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RATES = (process.env.BENCH_RATES ?? '20,100').split(',').map(Number);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
// The server allows a steady 3 messages/s per socket; senders stay under it, as people do.
const PER_SENDER_PER_SECOND = 2;
// The product's p99 may be at most this many times bare ws's (bench/chat-fanout-bare-server.ts) at the same load.
const BARE_RATIO_TARGET = 2;

interface Node {
  port: number;
  tokens: string[];
  child: ChildProcess;
  lines: readline.Interface;
}

/** The node's CPU time so far (user + system, ms), asked by signal. */
function cpuOf(node: Node): Promise<number> {
  return new Promise((resolve) => {
    node.lines.once('line', (line) => {
      const { cpu } = JSON.parse(line) as { cpu: { user: number; system: number } };
      resolve((cpu.user + cpu.system) / 1000);
    });
    node.child.kill('SIGUSR2');
  });
}

const PRODUCT_SERVER = 'bench/chat-fanout-server.ts';
const BARE_SERVER = 'bench/chat-fanout-bare-server.ts';

async function startNode(script: string, meetingId: string, visitors: number, env: Record<string, string>): Promise<Node> {
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the servers.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, BENCH_MEETING_ID: meetingId, BENCH_VISITORS: String(visitors), DATABASE_URL: '', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  const { port, tokens } = JSON.parse(line) as { port: number; tokens: string[] };
  return { port, tokens, child, lines };
}

function stopNode(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface Client {
  socket: WebSocket;
}

function connect(port: number, meetingId: string, token: string, onChat: (text: string, at: number) => void): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/chat/${meetingId}`, { headers: { cookie: `vm_session=${token}` }, perMessageDeflate: false, skipUTF8Validation: true });
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    socket.once('error', reject);
    socket.on('message', (raw) => {
      const at = performance.now();
      const text = raw.toString();
      if (text.startsWith('{"type":"WELCOME"')) return resolve({ socket });
      if (!text.startsWith('{"type":"CHAT_MESSAGE"')) return;
      // The clients share one process with 499 others: a regex instead of a full parse keeps their cost down.
      const m = /"message":"(bench [^"]+)"/.exec(text);
      if (m) onChat(m[1]!, at);
    });
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Result {
  scenario: string;
  rate: number;
  messages: number;
  deliveries: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
  messagesPerSecond: number;
  deliveriesPerSecond: number;
  /** Server CPU (all nodes) per message fanned out to every client, in ms: the cost, whatever else runs. */
  serverCpuPerMessage: number;
}

async function scenario(name: string, nodeCount: number, env: Record<string, string>, script = PRODUCT_SERVER): Promise<Result[]> {
  const meetingId = crypto.randomUUID();
  const perNode = Math.ceil(CLIENTS / nodeCount);
  const nodes = await Promise.all(Array.from({ length: nodeCount }, () => startNode(script, meetingId, perNode, env)));
  const sentAt = new Map<string, number>();
  let latencies: number[] = [];
  let lastArrival = 0;
  const onChat = (text: string, at: number) => {
    const sent = sentAt.get(text);
    if (sent === undefined) return;
    latencies.push(at - sent);
    lastArrival = at;
  };
  const clients: Client[] = [];
  try {
    // Connect in batches, interleaving the nodes, so every node holds its share.
    for (let i = 0; i < perNode; i += 50) {
      const batch: Promise<Client>[] = [];
      for (const node of nodes) for (const token of node.tokens.slice(i, i + 50)) batch.push(connect(node.port, meetingId, token, onChat));
      clients.push(...(await Promise.all(batch)));
    }
    const total = clients.length;
    await new Promise((r) => setTimeout(r, 1000)); // let the join announcements settle

    const results: Result[] = [];
    for (const rate of RATES) {
      latencies = [];
      sentAt.clear();
      const messages = rate * SECONDS;
      const cpuBefore = (await Promise.all(nodes.map(cpuOf))).reduce((a, b) => a + b, 0);
      const senders = Math.max(1, Math.ceil(rate / PER_SENDER_PER_SECOND));
      const start = performance.now();
      for (let i = 0; i < messages; i++) {
        const due = start + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        // Senders alternate between nodes: with two nodes, half the messages cross Redis to reach half the clients.
        const sender = clients[(i % senders) * nodeCount + (i % nodeCount)] ?? clients[i % senders]!;
        const text = `bench ${rate} ${i}`;
        sentAt.set(text, performance.now());
        sender.socket.send(JSON.stringify({ from: null, data: { id: String(i), data: text }, type: 'CHAT_MESSAGE', displayName: null }));
      }
      const sendEnd = performance.now();
      const expected = messages * total;
      const deadline = performance.now() + 15_000;
      while (latencies.length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const cpuAfter = (await Promise.all(nodes.map(cpuOf))).reduce((a, b) => a + b, 0);
      const sorted = [...latencies].sort((a, b) => a - b);
      const duration = (Math.max(lastArrival, sendEnd) - start) / 1000;
      results.push({
        scenario: name,
        rate,
        messages,
        deliveries: latencies.length,
        expected,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted[sorted.length - 1] ?? NaN,
        messagesPerSecond: messages / duration,
        deliveriesPerSecond: latencies.length / duration,
        serverCpuPerMessage: (cpuAfter - cpuBefore) / messages,
      });
      await new Promise((r) => setTimeout(r, 500));
    }
    return results;
  } finally {
    for (const c of clients) c.socket.terminate();
    // A server still working through a backlog (thousands of sockets, more messages than it could send) can take
    // minutes to close gracefully; its figures are taken, so it gets five seconds, then is killed.
    await Promise.all(nodes.map((n) => stopNode(n.child)));
  }
}

function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(port || 6379), hostname, () => {
      s.write('PING\r\n');
    });
    s.once('data', (d) => {
      s.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    s.once('error', () => resolve(false));
    s.setTimeout(1000, () => {
      s.destroy();
      resolve(false);
    });
  });
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
function print(results: Result[]): void {
  for (const r of results) {
    const lost = r.expected - r.deliveries;
    console.log(
      `${r.scenario.padEnd(28)} ${String(r.rate).padStart(4)} msg/s offered  p50 ${ms(r.p50).padStart(9)}  p99 ${ms(r.p99).padStart(9)}  max ${ms(r.max).padStart(9)}  ` +
        `${r.messagesPerSecond.toFixed(0)} msg/s, ${r.deliveriesPerSecond.toFixed(0)} deliveries/s, server CPU ${r.serverCpuPerMessage.toFixed(2)} ms/msg` +
        `${lost ? `  MISSING ${lost}` : ''}  ${r.scenario.startsWith('bare') ? '(baseline)' : r.p99 < 100 && !lost ? 'OK' : 'OVER TARGET'}`,
    );
  }
}

console.log(
  `chat fan-out: one webcast, ${CLIENTS} clients, ${SECONDS} s per rate, targets p99 < 100 ms and p99 ≤ ${BARE_RATIO_TARGET}× bare ws ` +
    `(load average now ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
);
// The same clients and load against bare `ws` first: what this machine can do at all in this run.
const bare = await scenario('bare ws, 1 process', 1, {}, BARE_SERVER);
print(bare);
const all: Result[] = [...bare];
const product = await scenario('1 process, in-memory', 1, {});
print(product);
all.push(...product);
for (const r of product) {
  const b = bare.find((x) => x.rate === r.rate);
  if (!b) continue;
  const ratio = r.p99 / b.p99;
  console.log(`${String(r.rate).padStart(4)} msg/s: product p99 ${ms(r.p99)} = ${ratio.toFixed(2)}× bare ws (${ms(b.p99)}), target ≤ ${BARE_RATIO_TARGET}×: ${ratio <= BARE_RATIO_TARGET ? 'met' : 'NOT met'}`);
}
if (process.env.BENCH_SKIP_REDIS) console.log('2 processes through Redis: SKIPPED (BENCH_SKIP_REDIS)');
else if (await redisAnswers(REDIS_URL)) {
  // One CLUSTER_SECRET for both, as an operator sets it: without it each process signs with a key derived from its
  // own data directory's PIN key, and the other drops every signal it did not sign (half the deliveries missing).
  const redis = await scenario('2 processes through Redis', 2, { REDIS_URL, CLUSTER_SECRET: crypto.randomBytes(32).toString('base64') });
  print(redis);
  all.push(...redis);
} else console.log(`2 processes through Redis: SKIPPED (no Redis at ${REDIS_URL})`);
// One machine-readable line for `npm run bench` (bench/run-all.ts).
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'chat', clients: CLIENTS, figures: all })}`);
