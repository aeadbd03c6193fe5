import WebSocket from 'ws';
import { ChatSignalTypes, type ChatSignal, type WelcomeData } from '@videomote/contract/chat';

type DataOf<T extends ChatSignal['type']> = Extract<ChatSignal, { type: T }>['data'];

/**
 * A real WebSocket client of the chat protocol, for the protocol tests and the benchmark: it records every
 * signal and can wait for one that matches.
 */
export class ChatTestClient {
  readonly signals: ChatSignal[] = [];
  welcome: WelcomeData | null = null;
  closeCode: number | null = null;
  closeReason: string | null = null;
  private waiters: { match: (s: ChatSignal) => boolean; resolve: (s: ChatSignal) => void }[] = [];
  onSignal: ((s: ChatSignal, receivedAt: number) => void) | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const at = performance.now();
      const signal = JSON.parse(raw.toString()) as ChatSignal;
      if (signal.type === ChatSignalTypes.welcome) this.welcome = signal.data;
      this.signals.push(signal);
      this.onSignal?.(signal, at);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(signal)) return true;
        w.resolve(signal);
        return false;
      });
    });
    socket.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
    });
  }

  /** Connects and waits for the welcome; rejects with the HTTP status when the upgrade is refused. */
  static connect(url: string, cookie: string | null, headers: Record<string, string> = {}, options: { autoPong?: boolean } = {}): Promise<ChatTestClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { ...(cookie ? { cookie } : {}), ...headers }, autoPong: options.autoPong ?? true });
      const client = new ChatTestClient(socket);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
      socket.once('error', reject);
      client.next(ChatSignalTypes.welcome, undefined, 10_000).then(() => resolve(client), reject);
    });
  }

  /** The next signal of a type (optionally matching `where`), or a rejection after `timeoutMs`. */
  next<T extends ChatSignal['type']>(type: T, where: (data: DataOf<T>) => boolean = () => true, timeoutMs = 5000): Promise<{ type: T; data: DataOf<T> }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} signal within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        match: (s) => s.type === type && where(s.data as DataOf<T>),
        resolve: (s) => {
          clearTimeout(timer);
          resolve(s as { type: T; data: DataOf<T> });
        },
      });
    });
  }

  /** A signal of a type that has already arrived or arrives within `timeoutMs` (for signals a test may be late for). */
  seen<T extends ChatSignal['type']>(type: T, where: (data: DataOf<T>) => boolean = () => true, timeoutMs = 5000): Promise<{ type: T; data: DataOf<T> }> {
    const hit = this.signals.find((s) => s.type === type && where(s.data as DataOf<T>));
    return hit ? Promise.resolve(hit as { type: T; data: DataOf<T> }) : this.next(type, where, timeoutMs);
  }

  of<T extends ChatSignal['type']>(type: T): DataOf<T>[] {
    return this.signals.filter((s) => s.type === type).map((s) => s.data) as unknown as DataOf<T>[];
  }

  chat(text: string): void {
    this.socket.send(JSON.stringify({ from: this.welcome?.connectionId, data: { id: crypto.randomUUID(), data: text }, type: ChatSignalTypes.chatMessage, displayName: 'x' }));
  }
  remove(messageId: string): void {
    this.socket.send(JSON.stringify({ from: this.welcome?.connectionId, data: { id: crypto.randomUUID(), data: messageId }, type: ChatSignalTypes.removeChat, displayName: 'x' }));
  }
  toggleIgnore(connectionId: string, ignore: boolean): void {
    this.socket.send(
      JSON.stringify({ from: this.welcome?.connectionId, data: { id: crypto.randomUUID(), data: JSON.stringify({ connectionId, ignore }) }, type: ChatSignalTypes.toggleIgnoreChat, displayName: 'x' }),
    );
  }
  raiseHand(): void {
    this.socket.send(JSON.stringify({ from: this.welcome?.connectionId, data: { id: crypto.randomUUID(), data: '' }, type: ChatSignalTypes.raiseHand, displayName: 'x' }));
  }
  /** Own hand without an argument; a moderator passes someone's connection id. */
  lowerHand(connectionId = ''): void {
    this.socket.send(JSON.stringify({ from: this.welcome?.connectionId, data: { id: crypto.randomUUID(), data: connectionId }, type: ChatSignalTypes.lowerHand, displayName: 'x' }));
  }
  /** The text interpreter's line so far (lineId chosen by the sender), `final` once done. */
  caption(lineId: string, text: string, final = false): void {
    this.socket.send(JSON.stringify({ from: this.welcome?.connectionId, data: { id: lineId, data: text, final }, type: ChatSignalTypes.caption, displayName: 'x' }));
  }
  command(text: 'COMMAND:CHAT_CLOSE' | 'COMMAND:CHAT_OPEN' | 'COMMAND:PING'): void {
    this.socket.send(text);
  }

  /** The close code, at once if the socket has already closed (the close may beat the test's next line), else when it closes. */
  closed(timeoutMs = 5000): Promise<number> {
    if (this.closeCode !== null) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms`)), timeoutMs);
      this.socket.once('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/** Waits until a chat marker sent after the frames under test has reached every receiver: all before it was handled. */
export async function chatBarrier(sender: ChatTestClient, ...receivers: ChatTestClient[]): Promise<void> {
  const marker = `marker-${crypto.randomUUID()}`;
  const seen = receivers.map((r) => r.next(ChatSignalTypes.chatMessage, (m) => m.message === marker));
  sender.chat(marker);
  await Promise.all(seen);
}
