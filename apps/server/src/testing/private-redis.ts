import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../platform/free-port.ts';

export const REDIS_SERVER = '/usr/bin/redis-server';

/**
 * A redis-server of the test's own (never the machine's), keeping nothing on disk, which the test may restart empty
 * as an operator's restart does. Besides its TCP port it answers on a Unix socket, so a test can do something in the
 * restarted Redis before the servers under test, which reconnect over TCP, can reach it.
 */
export interface PrivateRedis {
  /** What the servers under test use. */
  url: string;
  /** The same Redis over its Unix socket (a path, as ioredis takes it). */
  socket: string;
  /**
   * Stops Redis (SIGTERM), waits `downMs`, starts it empty with its TCP port closed, runs `meanwhile` (which may use
   * `socket`), then opens the port. Resolves once TCP clients can connect again.
   */
  restart(options?: { downMs?: number; meanwhile?: () => Promise<void> }): Promise<void>;
  stop(): Promise<void>;
}

async function answers(connect: () => net.Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect();
    s.once('connect', () => (s.end(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`private Redis: ${what} not within 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-redis-'));
  const socket = path.join(dir, 'redis.sock');
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async (tcpPort: number) => {
    child = spawn(REDIS_SERVER, ['--port', String(tcpPort), '--bind', '127.0.0.1', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    await until('the Unix socket', () => answers(() => net.connect(socket)));
  };
  const stopChild = () =>
    new Promise<void>((resolve) => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });

  await start(port);
  await until('the TCP port', () => answers(() => net.connect(port, '127.0.0.1')));
  return {
    url: `redis://127.0.0.1:${port}`,
    socket,
    async restart({ downMs = 0, meanwhile } = {}) {
      await stopChild();
      await new Promise((r) => setTimeout(r, downMs));
      await start(0);
      await meanwhile?.();
      const admin = new Redis(socket);
      try {
        await admin.config('SET', 'port', String(port));
      } finally {
        admin.disconnect();
      }
      await until('the TCP port', () => answers(() => net.connect(port, '127.0.0.1')));
    },
    async stop() {
      await stopChild();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
