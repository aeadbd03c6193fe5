import { ChatCloseCodes } from '@videomote/contract/chat';

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
    socket.onopen = () => this.handlers.onOpen?.();
    socket.onmessage = (ev) => {
      if (typeof ev.data === 'string') this.handlers.onMessage(ev.data);
    };
    // An error is always followed by a close; the close decides about reconnecting.
    socket.onerror = () => {};
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.scheduleReconnect(ev.code);
    };
  }

  private scheduleReconnect(code: number): void {
    const willRetry = !this.deliberate && code !== ChatCloseCodes.sessionEnded && code !== ChatCloseCodes.removed;
    this.handlers.onDown?.({ code, willRetry });
    // New rights to fetch, not an outage: at once.
    const delay = code === ChatCloseCodes.rightsChanged ? 0 : this.reconnectMs;
    if (willRetry && this.timer === null) this.timer = this.setTimer(() => this.open(), delay);
  }

  /** Sends a text frame; false while disconnected (the caller keeps what the user typed). */
  send(frame: string): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(frame);
    return true;
  }

  /** Deliberate close: no reconnect. */
  close(): void {
    this.deliberate = true;
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
