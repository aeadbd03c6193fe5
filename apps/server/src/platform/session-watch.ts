import type { SessionStore } from './session.ts';

/** What a watch needs of the session store: hear logouts (here and, through the cluster bus, elsewhere) and read a session. */
export type WatchedSessions = Pick<SessionStore, 'onEnded' | 'find'>;

/** How often the sessions behind open sockets are read again, for those that expire without a logout. */
export const SESSION_SWEEP_MS = 60_000;

/**
 * Keeps a module's long-lived sockets (`/media`, `/chat`) no longer alive than the session that opened them. A
 * logout in any process ends them at once (SessionStore.onEnded, by the token's hash); a session that merely
 * expires is found by reading the sessions behind the open sockets again every `sweepMs`. Each module says which
 * sessions it holds (`live`) and closes its own sockets (`ended`): the watch owns no socket.
 */
export class SessionWatch {
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly sessions: WatchedSessions,
    private readonly module: {
      /** The sessions behind this module's open sockets now, as [token hash, token] (repeats are fine). */
      live(): Iterable<[hash: string, token: string]>;
      /** The session with this token hash ended: close its sockets. */
      ended(tokenHash: string): void;
    },
    sweepMs = SESSION_SWEEP_MS,
  ) {
    sessions.onEnded((hash) => {
      if (!this.stopped) module.ended(hash);
    });
    this.timer = setInterval(() => void this.sweep(), sweepMs);
    this.timer.unref();
  }

  /** Reads every session behind an open socket again; ends those gone. A store that cannot be read ends nothing. */
  async sweep(): Promise<void> {
    const tokens = new Map(this.module.live());
    for (const [hash, token] of tokens) {
      const alive = await this.sessions.find(token).then((s) => s !== null, () => true);
      if (!alive && !this.stopped) this.module.ended(hash);
    }
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
