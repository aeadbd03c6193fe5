/**
 * When a peer connection's ICE breaks (Wi-Fi to 4G, a dropped link, a new address), the connection is restarted in
 * place — a new ICE negotiation on the same RTCPeerConnection — long before anything is torn down: a rebuild costs
 * a new publisher or subscription, new tiles and a new key frame for everybody; a restart costs one round trip.
 * Framework-free; the media session feeds it ICE states and does what it asks.
 */

/** A short "disconnected" often heals by itself (a burst of loss): give it this long before restarting. */
export const ICE_DISCONNECTED_GRACE_MS = 1_500;
/**
 * A connection that has not connected this long after it was set up (or after a restart) counts as failed. Generous:
 * on a loaded two-core machine nine pages setting up at once took over ten seconds to connect.
 */
export const ICE_CONNECT_TIMEOUT_MS = 15_000;
/** Restarts tried in a row before giving up on a connection that worked before. */
export const ICE_MAX_RESTARTS = 3;
/**
 * For a connection that never connected, one restart: a network change cannot have broken it, so more restarts of
 * the same negotiation rarely help, and the user should hear soon that media cannot get through.
 */
export const ICE_MAX_RESTARTS_NEVER_CONNECTED = 1;

export type IceState = RTCIceConnectionState;

export interface IceRecoveryActions {
  /** Start an ICE restart on the same connection (a new offer with new ICE credentials). */
  restart(): void;
  /** The connection is broken (true) or works again (false): the spec's reconnecting / reconnected. */
  reconnecting(on: boolean): void;
  /** Restarts did not help. `everConnected` tells a connection that once worked from one that never did. */
  giveUp(everConnected: boolean): void;
  /** ICE is connected (first time or again). */
  connected?(): void;
  /**
   * The connection's ICE state now. A restart of a connection that still works may finish without any state
   * change (the old pair carries on until the new one is chosen): a restart's timeout then finds it connected.
   */
  currentState?(): IceState;
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

export class IceRecovery {
  private timer: unknown = null;
  private restarts = 0;
  /** Every restart this connection started, precautions included (restarts counts only those in a row). */
  private started = 0;
  private everConnected = false;
  private broken = false;
  private done = false;
  /** A restart is under way: its own connect timeout decides, not the grace of a "disconnected" on the way. */
  private restarting = false;
  /**
   * The restart under way was made while the connection still read connected (restartNow's precaution). If the
   * connection then goes "disconnected", its old path has just died and that restart may have gathered on an address
   * that is gone (CI: an address move, a precautionary restart at the socket's resume, "disconnected" 3.6 s later,
   * and media back only at the restart's 15 s timeout): it gets the grace of any disconnect, then a real restart.
   */
  private precautionary = false;

  constructor(
    private readonly actions: IceRecoveryActions,
    private readonly timers: Timers = realTimers,
  ) {
    // From creation: a connection that never gets anywhere is a failure too (UDP blocked, no TURN).
    this.arm(ICE_CONNECT_TIMEOUT_MS, () => this.onFailed());
  }

  /**
   * Restarts started so far, precautions included, and whether one is under way (started, and its connection has not
   * connected since): a resume compares them with the give-up's. The same shape as RemoteFeeds' restartRequests.
   */
  get restartRequests(): { asked: number; pending: boolean } {
    return { asked: this.started, pending: this.restarting };
  }

  /** Whether this connection's ICE has connected at least once. */
  get connectedOnce(): boolean {
    return this.everConnected;
  }

  /** Every `iceconnectionstatechange`. */
  update(state: IceState): void {
    if (this.done) return;
    switch (state) {
      case 'connected':
      case 'completed':
        this.disarm();
        this.everConnected = true;
        this.restarts = 0;
        this.restarting = this.precautionary = false;
        this.actions.connected?.();
        if (this.broken) {
          this.broken = false;
          this.actions.reconnecting(false);
        }
        break;
      case 'disconnected':
        this.markBroken();
        if (this.restarting && this.precautionary) this.restarting = this.precautionary = false;
        if (!this.restarting) this.arm(ICE_DISCONNECTED_GRACE_MS, () => this.onFailed());
        break;
      case 'failed':
        this.markBroken();
        this.onFailed();
        break;
      case 'closed':
        this.stop();
        break;
      default:
        // new / checking: the connect timeout (from creation or the last restart) is running.
        break;
    }
  }

  /**
   * The signalling socket was replaced after it had carried nothing for seconds (a new address, a dead link): the
   * media path has most likely changed too, and a restart asked for meanwhile may have been lost. Restart now
   * rather than wait for ICE's own timeouts.
   */
  restartNow(): void {
    if (this.done) return;
    // Even while a restart is under way: it may have gone out on the dead socket, or gathered on an old address.
    this.restarting = false;
    const now = this.actions.currentState?.();
    // A connection that still reads connected is restarted as a precaution: that costs none of the restarts in a
    // row that lead to giving up, which only ICE's own failures spend. Counted, a link cut and an address move a
    // few seconds apart (a resume and an address-watch restart each, all within one connect timeout, with no state
    // change to reset the count) used the three up and gave a working connection up, rebuilt from scratch.
    if (now === 'connected' || now === 'completed') {
      this.startRestart();
      this.precautionary = true;
      return;
    }
    this.onFailed();
  }

  /** The connection is gone or replaced: no more timers or actions. */
  stop(): void {
    this.done = true;
    this.disarm();
  }

  private markBroken(): void {
    if (this.broken || !this.everConnected) return;
    this.broken = true;
    this.actions.reconnecting(true);
  }

  private onFailed(): void {
    if (this.done) return;
    const now = this.actions.currentState?.();
    if (this.restarting && (now === 'connected' || now === 'completed')) {
      this.update(now);
      return;
    }
    if (this.restarts >= (this.everConnected ? ICE_MAX_RESTARTS : ICE_MAX_RESTARTS_NEVER_CONNECTED)) {
      this.stop();
      this.actions.giveUp(this.everConnected);
      return;
    }
    this.restarts += 1;
    this.startRestart();
  }

  private startRestart(): void {
    this.started += 1;
    this.restarting = true;
    this.precautionary = false;
    // If this restart does not connect in time, the next one (or the end) follows.
    this.arm(ICE_CONNECT_TIMEOUT_MS, () => this.onFailed());
    this.actions.restart();
  }

  private arm(ms: number, fn: () => void): void {
    this.disarm();
    this.timer = this.timers.set(() => {
      this.timer = null;
      fn();
    }, ms);
  }

  private disarm(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }
}

/**
 * The `/media` signalling socket after a change of address: the old TCP connection does not close, it just hangs,
 * and an ICE restart sent on it is lost. Chromium's own ICE notices the move only when its checks time out
 * (measured here: "disconnected" 6.5 s after the address moved, and no `online` or `navigator.connection` event at
 * all), so the socket is what tells first. It is pinged every SIGNAL_PING_MS; one whose ping is not answered within
 * SIGNAL_OVERDUE_MS is suspect, and is given up at once when no media byte arrives either for MEDIA_QUIET_MS while
 * the page still sends (the whole path is gone, not just a busy server), else after SIGNAL_DEAD_MS of silence as
 * before. A server that is merely slow to answer thus costs no resume while media still flows, nor does a page
 * whose own media stood still with it (quietMediaVerdict).
 *
 * A page that was itself stalled (a cheap phone, a starved machine: its timers ran PAGE_STALL_MS or more late) judges
 * nothing on that turn: the answers may be waiting in its own queue, behind the timer. It pings again and looks at
 * the next turn that runs on time; a resume it did not need would cost it a new socket, a failed one a fresh start.
 */
export const SIGNAL_PING_MS = 1_000;
export const SIGNAL_OVERDUE_MS = 1_000;
export const MEDIA_QUIET_MS = 500;
export const SIGNAL_DEAD_MS = 7_000;
export const PAGE_STALL_MS = 1_000;

/** Media bytes this page has received and sent so far (null: it receives, or sends, nothing). */
export interface MediaBytes {
  received: number | null;
  sent: number | null;
}

/**
 * What media did while a ping was overdue (two readings MEDIA_QUIET_MS apart): still arriving (the server is only
 * slow); nothing arriving while the page still sends, or with nothing sent to tell by (the path is gone); or nothing
 * arriving and nothing sent either, which is the page's own media threads standing still (a phone or machine starved
 * of CPU: its network and encoder threads wait as long as the server's answer does), not the path: sending does not
 * stop on a dead path, packets go on being handed to a socket that cannot deliver them. (A muted microphone still
 * sends its silence; a page sending nothing at all, no microphone and the camera off, is left to the long silence.)
 */
export function quietMediaVerdict(before: MediaBytes, after: MediaBytes): 'flowing' | 'dead' | 'pageStalled' {
  if (before.received !== null && after.received !== null && after.received > before.received) return 'flowing';
  if (before.sent !== null && after.sent !== null && after.sent === before.sent) return 'pageStalled';
  return 'dead';
}

export interface SignalWatchActions {
  ping(): void;
  /** Media bytes this page has received and sent so far, all its connections together. */
  mediaBytes(): Promise<MediaBytes>;
  /** The socket is taken as dead: replace it. The watch sleeps until `heard()` or `reset()`. */
  dead(): void;
}

export class SignalWatch {
  private lastHeard: number;
  /** When the oldest ping not answered yet went out, and the timer that looks at it when it is overdue. */
  private unansweredSince: number | null = null;
  private overdueTimer: unknown = null;
  private checkingMedia = false;
  private asleep = false;
  private stopped = false;
  private beatTimer: unknown = null;
  private beatDueAt = 0;
  private readonly onBeat = () => {
    this.tick(this.ranLate(this.beatDueAt));
    this.armBeat();
  };

  constructor(
    private readonly actions: SignalWatchActions,
    private readonly timers: Timers = realTimers,
    private readonly clock: () => number = Date.now,
  ) {
    this.lastHeard = clock();
    this.armBeat();
  }

  /** Whether something due at `dueAt` ran so late that the page itself was stalled. */
  private ranLate(dueAt: number): boolean {
    return this.clock() - dueAt >= PAGE_STALL_MS;
  }

  private armBeat(): void {
    if (this.stopped) return;
    this.beatDueAt = this.clock() + SIGNAL_PING_MS;
    this.beatTimer = this.timers.set(this.onBeat, SIGNAL_PING_MS);
  }

  /** Anything came in on the socket. */
  heard(): void {
    this.lastHeard = this.clock();
    this.unansweredSince = null;
    if (this.overdueTimer !== null) this.timers.clear(this.overdueTimer);
    this.overdueTimer = null;
    this.asleep = false;
  }

  /** A fresh socket (after a resume, or when a dead one could not be replaced): watch it from now. */
  reset(): void {
    this.heard();
  }

  /**
   * Something else says the network may have changed (an ICE connection went disconnected or failed, the browser
   * went online again): ping now rather than at the next beat.
   */
  suspect(): void {
    if (!this.stopped && !this.asleep) this.sendPing();
  }

  stop(): void {
    this.stopped = true;
    for (const t of [this.beatTimer, this.overdueTimer]) if (t !== null) this.timers.clear(t);
    this.beatTimer = this.overdueTimer = null;
  }

  private tick(stalled: boolean): void {
    if (this.asleep || this.stopped) return;
    // A page stalled over and over still gives up a socket silent for twice the long silence.
    if (this.clock() - this.lastHeard >= (stalled ? 2 * SIGNAL_DEAD_MS : SIGNAL_DEAD_MS)) return this.die();
    this.sendPing();
  }

  private sendPing(): void {
    if (this.unansweredSince === null) {
      const since = (this.unansweredSince = this.clock());
      this.overdueTimer = this.timers.set(() => {
        this.overdueTimer = null;
        if (this.unansweredSince !== since || this.checkingMedia) return;
        // Stalled: the next ping starts a fresh wait.
        if (this.ranLate(since + SIGNAL_OVERDUE_MS)) this.unansweredSince = null;
        else void this.checkMedia(since);
      }, SIGNAL_OVERDUE_MS);
    }
    this.actions.ping();
  }

  /**
   * A ping is overdue: does media still arrive? None for MEDIA_QUIET_MS (or none to receive) while the page still
   * sends: the path is gone (quietMediaVerdict).
   */
  private async checkMedia(since: number): Promise<void> {
    this.checkingMedia = true;
    try {
      const none: MediaBytes = { received: null, sent: null };
      const before = await this.actions.mediaBytes().catch(() => none);
      const quietUntil = this.clock() + MEDIA_QUIET_MS;
      await new Promise<void>((resolve) => this.timers.set(resolve, MEDIA_QUIET_MS));
      const after = await this.actions.mediaBytes().catch(() => none);
      if (this.stopped || this.asleep || this.unansweredSince !== since) return; // answered meanwhile
      const verdict = quietMediaVerdict(before, after);
      if (this.ranLate(quietUntil) || verdict === 'pageStalled') {
        this.unansweredSince = null; // stalled: as above (the long silence still decides)
        return;
      }
      if (verdict === 'dead') this.die();
    } finally {
      this.checkingMedia = false;
    }
  }

  private die(): void {
    if (this.asleep || this.stopped) return;
    this.asleep = true;
    this.actions.dead();
  }
}

/**
 * After a resume's restart the browser's own list of addresses is watched this often, for this long: when it gains
 * one (the new address has arrived) every connection restarts ICE once more, now gathering on it.
 */
export const NETWORK_WATCH_MS = 150;
export const NETWORK_WATCH_FOR_MS = 8_000;

/**
 * Whether media arrived between two readings of the bytes received (null: nothing to receive, or no reading), as
 * between a socket given up and its resume: media that came in proves the path was never moved.
 */
export function mediaFlowedSince(before: number | null, now: number | null): boolean {
  return before !== null && now !== null && now > before;
}

/**
 * Whether the browser has an address now that it had not when the restart was made (an empty list is no answer yet).
 * Only an address gained calls for another restart: one lost (Chromium still listed the old address beside the new
 * one at the restart, and gathered on both) leaves the restart's pairs on the new one, and a second restart within a
 * second of the first held media back 9.4 s where one alone took 3 s (CI, 3 December).
 */
export function addressGained(atRestart: readonly string[], now: readonly string[]): boolean {
  return now.some((a) => !atRestart.includes(a));
}
