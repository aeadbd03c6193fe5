import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { writeJanusConfig, type EmbeddedJanusSettings } from './janus-config.ts';
import { freePort } from '../../../platform/free-port.ts';

/** Debian's janus; JANUS_BIN (read at each start) points elsewhere. */
export const janusBin = () => process.env.JANUS_BIN || '/usr/bin/janus';

export interface SupervisorLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EmbeddedJanus {
  url: string;
  adminUrl: string;
  tokenSecret: string;
  roomAdminKey: string;
}

/** util-linux's setpriv (Debian: always installed), for the parent-death signal. */
const SETPRIV = '/usr/bin/setpriv';

/** Resolves once Janus answers on its WebSocket API, so callers never race its start-up. */
export async function waitForJanus(url: string, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(url, 'janus-protocol');
      const done = (v: boolean) => {
        ws.removeAllListeners();
        ws.on('error', () => {});
        ws.terminate();
        resolve(v);
      };
      ws.once('open', () => done(true));
      ws.once('error', () => done(false));
    });
    if (ok) return;
    if (!isAlive()) throw new Error('janus exited during start-up');
    if (Date.now() > deadline) throw new Error(`janus did not answer on ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs Debian's janus as a child of the server: writes its configuration under DATA_DIR/janus, binds its
 * WebSocket and admin APIs to 127.0.0.1, restarts it with backoff when it dies, and stops it on close.
 * Emits 'started' (each time Janus is up, including after a restart) and 'exit'.
 */
export class JanusSupervisor extends EventEmitter {
  private child: ChildProcess | null = null;
  private settings: EmbeddedJanusSettings | null = null;
  private starting: Promise<EmbeddedJanus> | null = null;
  private stopped = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private lastStart = 0;
  private tail: string[] = [];
  restarts = 0;

  constructor(
    private readonly opts: {
      dataDir: string;
      iceEnforce: string | null;
      rtpPortRange: string;
      log: SupervisorLog;
      /** Fixed secrets, for running several instances that one server addresses through JANUS_URL (tests, ops). */
      secrets?: { tokenSecret: string; roomAdminKey: string };
      /** Config sub-folder of DATA_DIR (default "janus"). */
      name?: string;
    },
  ) {
    super();
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Whether Janus was ever asked for: it is started on the first media use, not with the server. */
  used = false;

  /** Janus's last output lines, for diagnosing a failed start. */
  output(): string {
    return this.tail.join('\n');
  }

  /** Starts Janus if it is not running; resolves with where to reach it. Safe to call many times. */
  ensureStarted(): Promise<EmbeddedJanus> {
    if (this.stopped) return Promise.reject(new Error('janus supervisor stopped'));
    this.used = true;
    if (this.child && this.child.exitCode === null && this.settings && !this.starting) return Promise.resolve(this.describe(this.settings));
    this.starting ??= this.spawnOnce().finally(() => (this.starting = null));
    return this.starting;
  }

  private describe(s: EmbeddedJanusSettings): EmbeddedJanus {
    return { url: `ws://127.0.0.1:${s.wsPort}`, adminUrl: `ws://127.0.0.1:${s.adminWsPort}`, tokenSecret: s.tokenSecret, roomAdminKey: s.roomAdminKey };
  }

  private async spawnOnce(): Promise<EmbeddedJanus> {
    const bin = janusBin();
    if (!fs.existsSync(bin)) throw new Error(`${bin} is not installed (Debian package "janus")`);
    // Secrets are fresh per server process; ports are kept across restarts so relays reconnect to the same place.
    this.settings ??= {
      wsPort: await freePort(),
      adminWsPort: await freePort(),
      tokenSecret: this.opts.secrets?.tokenSecret ?? crypto.randomBytes(24).toString('base64url'),
      adminSecret: crypto.randomBytes(24).toString('base64url'),
      roomAdminKey: this.opts.secrets?.roomAdminKey ?? crypto.randomBytes(24).toString('base64url'),
      iceEnforce: this.opts.iceEnforce,
      rtpPortRange: this.opts.rtpPortRange,
    };
    const dir = path.join(this.opts.dataDir, this.opts.name ?? 'janus');
    const cfg = writeJanusConfig(dir, this.settings);
    const args = [`--config=${cfg}`, `--configs-folder=${dir}`, '--disable-colors'];
    // Janus must not outlive a server killed with SIGKILL (no 'close' runs then): the kernel's parent-death
    // signal ends it with us. setpriv sets it and execs Janus, so the pid stays Janus's own.
    const child = fs.existsSync(SETPRIV)
      ? spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.lastStart = Date.now();
    const keep = (d: Buffer) => {
      for (const line of d.toString().split('\n')) if (line.trim()) this.tail.push(line);
      if (this.tail.length > 200) this.tail.splice(0, this.tail.length - 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', (code, signal) => this.onExit(child, code, signal));
    child.once('error', (err) => this.opts.log.error({ err }, 'janus could not be started'));
    const described = this.describe(this.settings);
    try {
      await waitForJanus(described.url, 15_000, () => child.exitCode === null && child.signalCode === null);
    } catch (err) {
      // Detach first, so its exit does not schedule a restart of its own: the caller decides whether to retry.
      if (this.child === child) this.child = null;
      if (child.exitCode === null) child.kill('SIGKILL');
      // A port taken by someone else between our probe and Janus's bind: pick new ones next time.
      this.settings = null;
      throw new Error(`${(err as Error).message}\n${this.output().split('\n').slice(-15).join('\n')}`);
    }
    this.opts.log.info({ pid: child.pid, url: described.url }, 'janus started');
    this.emit('started', described);
    return described;
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = null;
    this.emit('exit', { code, signal });
    if (this.stopped) return;
    this.opts.log.warn({ code, signal }, 'janus exited; restarting');
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    // Backoff: quick after a long healthy run, growing while it keeps dying at start-up.
    this.failures = Date.now() - this.lastStart > 60_000 ? 0 : this.failures + 1;
    const delay = Math.min(250 * 2 ** this.failures, 30_000);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.restarts += 1;
      this.ensureStarted().catch((err) => {
        this.opts.log.error({ err }, 'janus restart failed');
        // The child never came up, so no exit event will schedule the next attempt.
        if (!this.stopped && !this.child && !this.restartTimer) this.scheduleRestart();
      });
    }, delay);
    this.restartTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}
