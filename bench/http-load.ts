/**
 * An HTTP load generator in its own process, like wrk or autocannon: a closed loop of N keep-alive connections over
 * loopback, each sending its next request as soon as the previous answer arrived. Kept out of the server's process
 * so that the client's own work never sits in the server's event loop and inflates the latencies it measures.
 *
 * Used through `runLoad()` (it forks this file); the child receives a LoadPlan over IPC and answers LoadResult.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadPlan {
  port: number;
  connections: number;
  requests: LoadRequest[];
  /**
   * Requests per second to offer, spread evenly (open loop, as wrk2): each request has a scheduled start and its
   * latency counts from then, so time spent waiting for a free connection is counted too. Without a rate the
   * connections send back to back (closed loop), which measures the most the server can do.
   */
  rate?: number;
}

export interface LoadResult {
  /** Milliseconds per request, in completion order. */
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

async function drive(plan: LoadPlan): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.connections });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const once = (r: LoadRequest) =>
    new Promise<number>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: plan.port, method: r.method, path: r.path, agent, headers: r.headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end(r.body);
    });
  const cpu0 = process.cpuUsage();
  const started = process.hrtime.bigint();
  const scheduledAt = (i: number) => started + BigInt(Math.round((i / plan.rate!) * 1e9));
  await Promise.all(
    Array.from({ length: plan.connections }, async () => {
      for (let i = next++; i < plan.requests.length; i = next++) {
        let t0 = process.hrtime.bigint();
        if (plan.rate) {
          const due = scheduledAt(i);
          if (due > t0) await new Promise((r) => setTimeout(r, Number(due - t0) / 1e6));
          t0 = due;
        }
        const status = await once(plan.requests[i]!);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (status < 200 || status >= 300) errors++;
      }
    }),
  );
  agent.destroy();
  const cpu = process.cpuUsage(cpu0);
  return {
    latencies,
    errors,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    clientCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / plan.requests.length,
  };
}

if (process.send && import.meta.url === `file://${process.argv[1]}`) {
  process.once('message', async (plan) => {
    process.send!(await drive(plan as LoadPlan));
  });
}
