/**
 * A synthetic participant's chat: the `/chat/{meetingId}` socket as the web app's chat uses it (chat-socket.ts and
 * chat-model.ts): the session cookie, the health check every 5 s and a new socket when it goes unanswered, a new
 * socket 5 s after a close (conference spec §9), the WELCOME's history merged as the web app merges it. It keeps
 * what a test needs to count: every message by the server's id, how often each arrived live, which of its own the
 * server accepted (its echo, under the server's id) and which were removed.
 */
import WebSocket from 'ws';
import { messagesAfterWelcome } from '@videomote/contract/chat-history';
import { CHAT_PING_COMMAND, ChatSignalTypes, ChatCloseCodes, type ChatMessageEvent, type ChatSignal } from '@videomote/contract/chat';

/** The web app's chat socket timings (apps/web/src/features/chat/socket/chat-socket.ts). */
const RECONNECT_MS = 5_000;
const PING_MS = 5_000;
const STALE_MS = 12_000;
/** Close codes after which the web app does not reconnect (the session ended, or removed from the meeting). */
const FINAL_CODES: number[] = [ChatCloseCodes.sessionEnded, ChatCloseCodes.removed];

export interface ChatClientOptions {
  base: string;
  meetingId: string;
  /** The participant's cookies (its Browserless jar's header), read at each (re)connect. */
  cookie: () => string;
  headers?: Record<string, string>;
}

export class SyntheticChat {
  private ws: WebSocket | null = null;
  private closed = false;
  private beat: ReturnType<typeof setInterval> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private lastHeard = 0;
  private readonly welcomeWaiters: (() => void)[] = [];
  /** The messages on screen, by the server's id: at each WELCOME as the web app keeps them (messagesAfterWelcome). */
  readonly messages = new Map<string, ChatMessageEvent>();
  /** Live CHAT_MESSAGE signals per message id: more than one is a message delivered twice. */
  readonly deliveries = new Map<string, number>();
  /** Our own messages the server took: their text → the server's id (from the echo every sender receives). */
  readonly accepted = new Map<string, string>();
  readonly removed = new Set<string>();
  connectionId: string | null = null;
  moderator = false;
  welcomes = 0;
  /** When (Date.now()) the latest WELCOME arrived. */
  welcomedAt = 0;

  private constructor(private readonly opts: ChatClientOptions) {}

  /** Opens the chat and waits for the server's WELCOME. */
  static async open(opts: ChatClientOptions): Promise<SyntheticChat> {
    const chat = new SyntheticChat(opts);
    const welcomed = chat.nextWelcome();
    chat.connect();
    await welcomed;
    return chat;
  }

  /** Resolves at the next WELCOME (the first, or a reconnect's). */
  nextWelcome(): Promise<void> {
    return new Promise((resolve) => this.welcomeWaiters.push(resolve));
  }

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN && this.connectionId !== null;
  }

  private connect(): void {
    this.retry = null;
    const url = `${this.opts.base.replace(/^http/, 'ws')}/chat/${encodeURIComponent(this.opts.meetingId)}`;
    const ws = new WebSocket(url, { headers: { ...this.opts.headers, cookie: this.opts.cookie(), origin: this.opts.base } });
    this.ws = ws;
    this.connectionId = null;
    ws.on('open', () => {
      this.lastHeard = Date.now();
      this.beat = setInterval(() => {
        if (Date.now() - this.lastHeard >= STALE_MS) return ws.terminate();
        if (ws.readyState === WebSocket.OPEN) ws.send(CHAT_PING_COMMAND);
      }, PING_MS);
    });
    ws.on('message', (raw) => {
      this.lastHeard = Date.now();
      this.onSignal(JSON.parse(String(raw)) as ChatSignal);
    });
    ws.on('error', () => {});
    ws.on('close', (code) => {
      if (this.ws !== ws) return;
      if (this.beat) clearInterval(this.beat);
      this.beat = null;
      this.ws = null;
      this.connectionId = null;
      if (!this.closed && !FINAL_CODES.includes(code)) this.retry = setTimeout(() => this.connect(), RECONNECT_MS);
    });
  }

  private onSignal(signal: ChatSignal): void {
    switch (signal.type) {
      case ChatSignalTypes.welcome:
        this.connectionId = signal.data.connectionId;
        this.moderator = signal.data.moderator;
        const kept = messagesAfterWelcome([...this.messages.values()], signal.data.history, signal.data.historySince);
        this.messages.clear();
        for (const m of kept) this.messages.set(m.id, m);
        this.welcomes += 1;
        this.welcomedAt = Date.now();
        for (const w of this.welcomeWaiters.splice(0)) w();
        return;
      case ChatSignalTypes.chatMessage: {
        const m = signal.data;
        this.deliveries.set(m.id, (this.deliveries.get(m.id) ?? 0) + 1);
        this.messages.set(m.id, m);
        if (m.fromId === this.connectionId) this.accepted.set(m.message, m.id);
        return;
      }
      case ChatSignalTypes.removeChat:
        this.removed.add(signal.data.id);
        this.messages.delete(signal.data.id);
        return;
      default:
    }
  }

  /** Sends a chat message as the web app's form does (the server assigns the id and the sender). */
  say(text: string): boolean {
    if (!this.open) return false;
    this.ws!.send(JSON.stringify({ from: this.connectionId, data: { data: text }, type: ChatSignalTypes.chatMessage, displayName: null }));
    return true;
  }

  /** A moderator's removal of a message, as the web app's delete button sends it. */
  remove(messageId: string): boolean {
    if (!this.open) return false;
    this.ws!.send(JSON.stringify({ from: this.connectionId, data: { id: messageId, data: messageId }, type: ChatSignalTypes.removeChat, displayName: null }));
    return true;
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.beat) clearInterval(this.beat);
    this.ws?.close(1000);
    this.ws = null;
  }
}
