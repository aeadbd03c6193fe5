/**
 * The `/media/{meetingId}` socket as the web app uses it (media-session.ts through janus.js): the Janus API,
 * checked and relayed by our server, plus the server's own `videomote` messages on the same socket (the hello with
 * the room and the connections, the meeting key, the meeting's protection). Keepalives as janus.js sends them.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { MediaConnection, MediaServerMessage } from '@videomote/contract/media';

export type JanusMessage = Record<string, unknown> & { janus?: string; transaction?: string; sender?: number };
type Connected = Extract<MediaServerMessage, { videomote: 'connected' }>;

const KEEPALIVE_MS = 25_000;
const ANSWER_MS = 20_000;

export class MediaSocket {
  private tx = 0;
  private readonly waiting = new Map<string, { resolve(m: JanusMessage): void; reject(e: Error): void; async: boolean }>();
  private readonly handleListeners = new Map<number, (m: JanusMessage) => void>();
  private readonly ownListeners: ((m: MediaServerMessage) => void)[] = [];
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private readonly closeListeners: (() => void)[] = [];
  session = 0;
  readonly connections = new Map<string, MediaConnection>();
  hello!: Connected;
  /** The VideoRoom room: from the server's hello (or, straight to Janus, given). */
  roomId = 0;
  closed = false;

  /**
   * `straightToJanus`: a socket to Janus's own WebSocket (bare-janus.ts, a bench baseline): Janus's signed token goes
   * with every request, as janus.js sends it, and there are no `videomote` messages to send.
   */
  constructor(
    private readonly ws: WebSocket,
    private readonly straightToJanus?: { token: string },
  ) {
    ws.on('message', (raw) => this.onMessage(JSON.parse(String(raw)) as JanusMessage));
    ws.on('close', () => {
      this.closed = true;
      if (this.keepalive) clearInterval(this.keepalive);
      for (const w of this.waiting.values()) w.reject(new Error('media socket closed'));
      this.waiting.clear();
      for (const l of this.closeListeners.splice(0)) l();
    });
  }

  /** Called once when the socket has closed, whoever closed it (the server, its Janus going away, or close()). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Opens the socket with the token and the session cookie, and waits for the server's hello. */
  static async open(opts: { base: string; meetingId: string; token: string; cookie: string; headers?: Record<string, string> }): Promise<MediaSocket> {
    const wsBase = opts.base.replace(/^http/, 'ws');
    const url = `${wsBase}/media/${encodeURIComponent(opts.meetingId)}?token=${encodeURIComponent(opts.token)}&client=${randomUUID()}&a=1`;
    const ws = new WebSocket(url, 'janus-protocol', { headers: { ...opts.headers, cookie: opts.cookie, origin: opts.base } });
    // Listening before the socket opens: the server's hello can come in the same read as the upgrade's answer.
    const socket = new MediaSocket(ws);
    const hello = socket.waitOwn((m) => m.videomote === 'connected');
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_q, res) => reject(new Error(`/media answered HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
    socket.hello = (await hello) as Connected;
    socket.roomId = socket.hello.roomId;
    for (const c of socket.hello.connections) socket.connections.set(c.connectionId, c);
    return socket;
  }

  private onMessage(m: JanusMessage): void {
    if ('videomote' in m) {
      const own = m as unknown as MediaServerMessage;
      if (own.videomote === 'connectionCreated' || own.videomote === 'connectionUpdated') this.connections.set(own.connection.connectionId, own.connection);
      if (own.videomote === 'connectionDestroyed') this.connections.delete(own.connectionId);
      for (const l of [...this.ownListeners]) l(own);
      return;
    }
    const t = typeof m.transaction === 'string' ? m.transaction : null;
    const w = t ? this.waiting.get(t) : undefined;
    if (w && t && !(m.janus === 'ack' && w.async)) {
      this.waiting.delete(t);
      if (m.janus === 'error') w.reject(new Error(`Janus error: ${JSON.stringify(m.error)}`));
      else w.resolve(m);
      if (m.janus !== 'event') return;
    }
    if (typeof m.sender === 'number') this.handleListeners.get(m.sender)?.(m);
  }

  /**
   * The camera feed of the first connection `pick` accepts, as the server announces it (in the hello or once it
   * publishes): how a viewer finds a presenter again after both started afresh.
   */
  async cameraFeed(pick: (c: MediaConnection) => boolean, ms = ANSWER_MS): Promise<number> {
    const known = [...this.connections.values()].find((c) => pick(c) && c.feedId !== null);
    if (known) return known.feedId!;
    const m = await this.waitOwn((m) => (m.videomote === 'connectionCreated' || m.videomote === 'connectionUpdated') && pick(m.connection) && m.connection.feedId !== null, ms);
    return (m as Extract<MediaServerMessage, { videomote: 'connectionUpdated' }>).connection.feedId!;
  }

  /** Our own messages: every one from now on, until `off` is called. */
  onOwn(listener: (m: MediaServerMessage) => void): () => void {
    this.ownListeners.push(listener);
    return () => this.ownListeners.splice(this.ownListeners.indexOf(listener), 1);
  }

  waitOwn(pred: (m: MediaServerMessage) => boolean, ms = ANSWER_MS): Promise<MediaServerMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error('timed out waiting for the server'));
      }, ms);
      const off = this.onOwn((m) => {
        if (!pred(m)) return;
        clearTimeout(timer);
        off();
        resolve(m);
      });
    });
  }

  /**
   * Sends a Janus request; `async` waits for the plugin's event rather than the ack. A refusal rejects: the relay
   * answers one as Janus would (`janus: 'error'` with the transaction).
   */
  request(message: Record<string, unknown>, async = false): Promise<JanusMessage> {
    const transaction = `s${++this.tx}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(transaction);
        reject(new Error(`no answer to ${JSON.stringify(message).slice(0, 200)}`));
      }, ANSWER_MS);
      this.waiting.set(transaction, {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
        async,
      });
      this.ws.send(JSON.stringify({ ...message, ...(this.straightToJanus ? { token: this.straightToJanus.token } : {}), transaction }));
    });
  }

  /** Our own message (state, ping, bye). */
  sendOwn(message: Record<string, unknown>): void {
    if (this.straightToJanus) return;
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** The Janus session (janus.js's `create`), kept alive as janus.js does. */
  async createSession(): Promise<number> {
    const created = await this.request({ janus: 'create' });
    this.session = (created.data as { id: number }).id;
    this.keepalive = setInterval(() => void this.request({ janus: 'keepalive', session_id: this.session }).catch(() => {}), KEEPALIVE_MS);
    return this.session;
  }

  /** A VideoRoom handle; `onEvent` hears its events (plugin events, trickle, webrtcup, media, hangup). */
  async attach(onEvent: (m: JanusMessage) => void, opaqueId?: string): Promise<number> {
    const attached = await this.request({ janus: 'attach', session_id: this.session, plugin: 'janus.plugin.videoroom', ...(opaqueId ? { opaque_id: opaqueId } : {}) });
    const handle = (attached.data as { id: number }).id;
    this.handleListeners.set(handle, onEvent);
    return handle;
  }

  /** Lets a handle go (janus.js's `detach`): Janus closes its PeerConnection and frees its port at once. */
  detach(handle: number): void {
    this.handleListeners.delete(handle);
    void this.request({ janus: 'detach', session_id: this.session, handle_id: handle }).catch(() => {});
  }

  /** A plugin message on a handle; answers the plugin's event (its `plugindata.data` and the jsep). */
  async message(handle: number, body: Record<string, unknown>, jsep?: Record<string, unknown>): Promise<{ data: Record<string, unknown>; jsep?: { type: string; sdp: string } }> {
    const m = await this.request({ janus: 'message', session_id: this.session, handle_id: handle, body, ...(jsep ? { jsep } : {}) }, true);
    const data = ((m.plugindata as { data?: Record<string, unknown> } | undefined)?.data ?? {}) as Record<string, unknown>;
    if (typeof data.error === 'string') throw new Error(`VideoRoom refused ${String(body.request)}: ${data.error}`);
    return { data, jsep: m.jsep as { type: string; sdp: string } | undefined };
  }

  trickle(handle: number, candidate: Record<string, unknown>): void {
    void this.request({ janus: 'trickle', session_id: this.session, handle_id: handle, candidate }).catch(() => {});
  }

  close(): void {
    this.sendOwn({ videomote: 'bye' });
    if (this.keepalive) clearInterval(this.keepalive);
    this.ws.close(1000);
  }
}
