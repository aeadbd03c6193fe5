import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/src/platform/free-port.ts';
import { copyMigratedCluster } from '../../apps/server/src/testing/migrated-cluster.ts';
import { serverBundle } from '../../scripts/server-bundle.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  url: string;
  port: number;
  /** The internal listener: /metrics, /readyz and /api/docs answer only here. */
  internalUrl: string;
  dataDir: string;
  process: ChildProcess;
  /** What the server printed, for failure messages. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export { freePort };

/**
 * A DATA_DIR as a first start would find it, but with the embedded database already made and migrated, which saves
 * each start seconds of initdb and migrations (migrated-cluster.ts).
 */
async function freshDataDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-e2e-'));
  await copyMigratedCluster(path.join(dataDir, 'db'));
  return dataDir;
}

/** A server that could not bind: a port freePort found free was taken before the server bound it. */
class PortTaken extends Error {}

/**
 * Starts the real server (`npm start`'s entry point, bundled: scripts/server-bundle.ts) on a free loopback port with
 * a fresh DATA_DIR, as a user would run it. Inside the test network namespace Janus gathers on 127.0.0.2 (see scripts/in-netns.sh).
 * freePort's ports are free when it looks, not when the server binds a second later: a clash (EADDRINUSE) is tried
 * again on new ports, a few times, and any other failure to start is the test's.
 */
export async function startServer(env: Record<string, string> = {}, options: { dataDir?: string; port?: number; address?: string } = {}): Promise<RunningServer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(env, options);
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt === 3) throw err;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function startOnce(env: Record<string, string>, options: { dataDir?: string; port?: number; address?: string }): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const internalPort = await freePort();
  const dataDir = options.dataDir ?? (await freshDataDir());
  // `address`: where the server listens and Janus gathers, for clients in namespaces of their own (client-netns.ts).
  const address = options.address ?? '127.0.0.1';
  const url = `http://${address}:${port}`;
  let log = '';
  const child = spawn(process.execPath, [await serverBundle()], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: address,
      INTERNAL_PORT: String(internalPort),
      INTERNAL_HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      JANUS_ICE_ENFORCE: options.address ?? process.env.JANUS_ICE_ENFORCE ?? '127.0.0.2',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  // Generous: on a loaded 2-core CI machine the start (the database, Janus) can take a while.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      const message = `server exited (${child.exitCode}):\n${log}`;
      throw log.includes('EADDRINUSE') ? new PortTaken(message) : new Error(message);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy within 120 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    internalUrl: `http://127.0.0.1:${internalPort}`,
    dataDir,
    process: child,
    output: () => log,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        // A child killed by a signal has signalCode set and exitCode null: it has exited all the same.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
