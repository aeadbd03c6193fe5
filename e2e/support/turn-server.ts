import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The project's own coturn configuration, used as operators get it (see docs/media.md, "TURN with short-lived credentials"). */
export const TURN_CONFIG = path.join(root, 'deploy/coturn/turnserver.conf');

export interface RunningTurn {
  secret: string;
  /** TURN_URLS for the server: UDP and TCP on the address. */
  urls: string[];
  output(): string;
  stop(): Promise<void>;
}

/**
 * Debian's coturn with deploy/coturn/turnserver.conf, listening and relaying on `address`, the shared secret and
 * the only allowed private peer (Janus's address) given at start as the file's header says. `verbose`: coturn logs
 * each request with its username (`session …: realm <…> user <…>: incoming packet ALLOCATE processed, success`),
 * which it does not at its default level.
 */
export async function startTurn(address: string, allowedPeer: string, options: { verbose?: boolean } = {}): Promise<RunningTurn> {
  const secret = crypto.randomBytes(24).toString('base64url');
  let log = '';
  const child: ChildProcess = spawn(
    'turnserver',
    ['-c', TURN_CONFIG, `--static-auth-secret=${secret}`, `--listening-ip=${address}`, `--relay-ip=${address}`, `--allowed-peer-ip=${allowedPeer}`, '--log-file=stdout', '--pidfile=/dev/null', ...(options.verbose ? ['--verbose'] : [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`turnserver exited (${child.exitCode}):\n${log}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(3478, address, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`turnserver did not listen within 15 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (/Bad configuration/.test(log)) throw new Error(`turnserver did not accept deploy/coturn/turnserver.conf:\n${log}`);
  return {
    secret,
    urls: [`turn:${address}:3478?transport=udp`, `turn:${address}:3478?transport=tcp`],
    output: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
