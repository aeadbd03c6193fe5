/**
 * An HTTP load generator in its own process, like wrk or autocannon: a closed loop of N keep-alive connections over
 * loopback, each sending its next request as soon as the previous answer arrived. Kept out of the server's process
 * so that the client's own work never sits in the server's event loop and inflates the latencies it measures, and
 * written on raw sockets with requests serialised in advance: on a two-core machine every millisecond of CPU the
 * client spends (node:http's client took 0.2 ms a request) is taken from the server and the database it measures.
 *
 * Used through `runLoad()` (it forks this file); the child receives a LoadPlan over IPC and answers LoadResult.
 */
import { fork } from 'node:child_process';
import net from 'node:net';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadPlan {
  port: number;
  /** Speak TLS, trusting this CA (PEM): through the TLS-terminating proxy of the cluster topology. */
  tlsCa?: string;
  connections: number;
  requests: LoadRequest[];
  /**
   * Requests per second to offer, spread evenly (open loop, as wrk2): each request has a scheduled start and its
   * latency counts from then, so time spent waiting for a free connection is counted too. Without a rate the
   * connections send back to back (closed loop), which measures the most the server can do.
   */
  rate?: number;
  /**
   * Requests sent first and not measured, over the same connections and at the same pace: they open the
   * connections and warm the JIT of both processes, so the figures are of the steady state and not of 50
   * connections arriving at once.
   */
  warmup?: number;
}

export interface LoadResult {
  /** Milliseconds per measured request, in completion order. */
  latencies: number[];
  /** Answers other than 2xx, and transport errors. */
  errors: number;
  seconds: number;
  /** CPU the load generator itself used per request (it shares the machine with the server). */
  clientCpuMsPerRequest: number;
}

/** Runs the plan in a child process and returns what it measured. */
export function runLoad(plan: LoadPlan): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (result) => {
      resolve(result as LoadResult);
      child.kill();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`load generator exited (${code}) before answering`)));
    child.send(plan);
  });
}

/** One HTTP/1.1 request, serialised once before the run so that the clock measures the server, not us. */
function encode(r: LoadRequest, port: number): Buffer {
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  const headers = Object.entries(r.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const length = body ? `content-length: ${body.length}\r\n` : '';
  const head = Buffer.from(`${r.method} ${r.path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${headers}${length}\r\n`);
  return body ? Buffer.concat([head, body]) : head;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Reads one response off a keep-alive socket: the status, then exactly the body its content-length or chunked
 * encoding announces. Kept minimal (one scan for the header end, no header objects) because its CPU is taken from
 * the server on a small machine; what it cannot frame counts as an error.
 */
class ResponseReader {
  private buffer: Buffer = Buffer.alloc(0);

  /** Feeds bytes; returns the status once a whole response has arrived, else null. */
  push(chunk: Buffer): number | null {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const headerEnd = this.buffer.indexOf(HEADER_END);
    if (headerEnd < 0) return null;
    const head = this.buffer.toString('latin1', 0, headerEnd);
    const status = Number(head.slice(9, 12));
    const bodyStart = headerEnd + 4;
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let end: number;
    if (length) {
      end = bodyStart + Number(length[1]);
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const last = this.buffer.indexOf('\r\n0\r\n\r\n', bodyStart - 2);
      if (last < 0) return null;
      end = last + 7;
    } else {
      end = bodyStart;
    }
    if (this.buffer.length < end) return null;
    this.buffer = this.buffer.subarray(end);
    return status;
  }
}

/** A keep-alive connection that sends one request at a time and resolves with the answer's status (0: failed). */
function connection(port: number, tlsCa?: string) {
  let socket: net.Socket | null = null;
  let reader: ResponseReader;
  let pending: ((status: number) => void) | null = null;
  const settle = (status: number) => {
    const resolve = pending;
    pending = null;
    resolve?.(status);
  };
  const open = () => {
    reader = new ResponseReader();
    const s = tlsCa
      ? tls.connect({ host: '127.0.0.1', port, servername: 'localhost', ca: tlsCa, ALPNProtocols: ['http/1.1'] }).setNoDelay(true)
      : net.connect({ host: '127.0.0.1', port, noDelay: true });
    s.on('data', (chunk) => {
      const status = reader.push(chunk);
      if (status !== null) settle(status);
    });
    s.on('error', () => {});
    s.on('close', () => {
      if (socket === s) socket = null;
      settle(0);
    });
    return s;
  };
  return {
    send(bytes: Buffer): Promise<number> {
      socket ??= open();
      return new Promise((resolve) => {
        pending = resolve;
        socket!.write(bytes);
      });
    },
    close: () => socket?.destroy(),
  };
}

/** Sends `requests` over the connections (closed loop, or open loop at `rate`) and measures each answer's latency. */
async function phase(connections: ReturnType<typeof connection>[], requests: Buffer[], rate: number | undefined) {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = process.hrtime.bigint();
  const scheduledAt = (i: number) => started + BigInt(Math.round((i / rate!) * 1e9));
  await Promise.all(
    connections.map(async (conn) => {
      for (let i = next++; i < requests.length; i = next++) {
        let t0 = process.hrtime.bigint();
        if (rate) {
          const due = scheduledAt(i);
          if (due > t0) await new Promise((r) => setTimeout(r, Number(due - t0) / 1e6));
          t0 = due;
        }
        const status = await conn.send(requests[i]!);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (status < 200 || status >= 300) errors++;
      }
    }),
  );
  return { latencies, errors, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function drive(plan: LoadPlan): Promise<LoadResult> {
  const encoded = plan.requests.map((r) => encode(r, plan.port));
  const warmup = plan.warmup ?? 0;
  const connections = Array.from({ length: plan.connections }, () => connection(plan.port, plan.tlsCa));
  if (warmup) {
    await phase(connections, encoded.slice(0, warmup), plan.rate);
    // A moment of quiet between the phases, for the garbage the warm-up (and building this plan) left on both sides.
    await new Promise((r) => setTimeout(r, 250));
  }
  const cpu0 = process.cpuUsage();
  const result = await phase(connections, encoded.slice(warmup), plan.rate);
  const cpu = process.cpuUsage(cpu0);
  for (const conn of connections) conn.close();
  return { ...result, clientCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / (encoded.length - warmup) };
}

if (process.send && import.meta.url === `file://${process.argv[1]}`) {
  process.once('message', async (plan) => {
    process.send!(await drive(plan as LoadPlan));
  });
}
