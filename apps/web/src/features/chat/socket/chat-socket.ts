import { CHAT_PING_COMMAND, ChatCloseCodes, ChatSignalTypes } from '@videomote/contract/chat';

/** Conference spec §9: the chat socket's health check every 5 s. */
export const CHAT_PING_MS = 5_000;
/**
 * Nothing at all heard for this long (two health checks unanswered) and the socket is taken as half-open: after an
 * address change or on a dead link the TCP connection neither closes nor carries anything, and the browser would
 * wait minutes for it to time out. It is dropped and a new one opened at once: the server knows the person by the
 * session, lists them once however many sockets they have, and hands the new one its last 200 messages.
 */
export const CHAT_STALE_MS = 12_000;
/**
 * A health check unanswered this long makes the socket suspect: nothing is sent on it meanwhile (the caller keeps
 * what the user typed), so a message does not vanish into a half-open socket before it is found stale.
 */
export const CHAT_SUSPECT_MS = 2_000;
const PONG = JSON.stringify({ type: ChatSignalTypes.pong, data: null });

/** The part of the browser's WebSocket the client uses, so tests can hand in their own. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface ChatSocketHandlers {
  onMessage(raw: string): void;
  onOpen?(): void;
  /** `willRetry` is false when the server ended it for good (session over) or we closed it on purpose. */
  onDown?(info: { code: number; willRetry: boolean }): void;
}

export interface ChatSocketOptions {
  createSocket?: (url: string) => SocketLike;
  /** Conference spec §9: chat socket health check and reconnect every 5 s. */
  reconnectMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** The health check (null: none, for tests of other things); its timers run on setTimer / clearTimer. */
  heartbeat?: { pingMs: number; staleMs: number; now(): number } | null;
}

const OPEN = 1;

/**
 * One chat WebSocket that reconnects every 5 s after an error or a close, unless it was closed deliberately
 * (spec §4) or the server said the session is over.
 */
export class ChatSocket {
  private socket: SocketLike | null = null;
  private timer: unknown = null;
  private deliberate = false;
  private readonly createSocket: (url: string) => SocketLike;
  private readonly reconnectMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly heartbeat: { pingMs: number; staleMs: number; now(): number } | null;
  private beat: unknown = null;
  private lastHeard = 0;
  /** When the oldest health check not answered yet went out. */
  private unansweredSince: number | null = null;

  constructor(
    /** The address, or how to find it (the client config is fetched once). */
    private readonly url: string | (() => string | Promise<string>),
    private readonly handlers: ChatSocketHandlers,
    options: ChatSocketOptions = {},
  ) {
    this.createSocket = options.createSocket ?? ((u) => new WebSocket(u) as unknown as SocketLike);
    this.reconnectMs = options.reconnectMs ?? 5000;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.heartbeat = options.heartbeat === undefined ? { pingMs: CHAT_PING_MS, staleMs: CHAT_STALE_MS, now: () => Date.now() } : options.heartbeat;
  }

  connect(): void {
    this.deliberate = false;
    this.open();
  }

  private open(): void {
    this.timer = null;
    if (typeof this.url === 'string') return this.openAt(this.url);
    Promise.resolve()
      .then(this.url as () => string | Promise<string>)
      .then(
        (url) => {
          if (!this.deliberate) this.openAt(url);
        },
        () => this.scheduleReconnect(1006),
      );
  }

  private openAt(url: string): void {
    let socket: SocketLike;
    try {
      socket = this.createSocket(url);
    } catch {
      this.scheduleReconnect(1006);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.startBeat(socket);
      this.handlers.onOpen?.();
    };
    socket.onmessage = (ev) => {
      if (this.heartbeat) this.lastHeard = this.heartbeat.now();
      this.unansweredSince = null;
      // The health check's answer is the socket's own business.
      if (typeof ev.data === 'string' && ev.data !== PONG) this.handlers.onMessage(ev.data);
    };
    // An error is always followed by a close; the close decides about reconnecting.
    socket.onerror = () => {};
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopBeat();
      this.scheduleReconnect(ev.code);
    };
  }

  /** Pings every pingMs while open; a socket silent for staleMs is dropped for a new one. */
  private startBeat(socket: SocketLike): void {
    const hb = this.heartbeat;
    if (!hb) return;
    this.stopBeat();
    this.lastHeard = hb.now();
    this.unansweredSince = null;
    const tick = () => {
      this.beat = null;
      if (this.socket !== socket) return;
      if (hb.now() - this.lastHeard >= hb.staleMs) return this.dropStale(socket);
      if (socket.readyState === OPEN) socket.send(CHAT_PING_COMMAND);
      this.unansweredSince ??= hb.now();
      this.beat = this.setTimer(tick, hb.pingMs);
    };
    this.beat = this.setTimer(tick, hb.pingMs);
  }

  private stopBeat(): void {
    if (this.beat !== null) this.clearTimer(this.beat);
    this.beat = null;
  }

  private dropStale(socket: SocketLike): void {
    this.socket = null;
    socket.onclose = null;
    socket.onmessage = null;
    socket.onopen = null;
    // Its close handshake cannot complete on a dead path: nothing more is waited for from it.
    socket.close(1000);
    this.scheduleReconnect(1006, 0);
  }

  private scheduleReconnect(code: number, after?: number): void {
    const willRetry = !this.deliberate && code !== ChatCloseCodes.sessionEnded && code !== ChatCloseCodes.removed;
    this.handlers.onDown?.({ code, willRetry });
    // New rights to fetch, not an outage: at once. A half-open socket found by the health check: the outage has
    // lasted long enough already, at once too.
    const delay = after ?? (code === ChatCloseCodes.rightsChanged ? 0 : this.reconnectMs);
    if (willRetry && this.timer === null) this.timer = this.setTimer(() => this.open(), delay);
  }

  /** Sends a text frame; false while disconnected (the caller keeps what the user typed). */
  send(frame: string): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    if (this.heartbeat && this.unansweredSince !== null && this.heartbeat.now() - this.unansweredSince >= CHAT_SUSPECT_MS) return false;
    this.socket.send(frame);
    return true;
  }

  /** Deliberate close: no reconnect. */
  close(): void {
    this.deliberate = true;
    this.stopBeat();
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000);
    }
  }
}
