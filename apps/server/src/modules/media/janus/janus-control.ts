import crypto from 'node:crypto';
import WebSocket from 'ws';
import { signJanusToken } from './janus-token.ts';

export interface JanusInstanceInfo {
  /** Stable name stored with each room ("embedded", or the URL of a configured instance). */
  id: string;
  url: string;
  tokenSecret: string;
  roomAdminKey: string;
}

type JanusReply = Record<string, unknown> & { janus: string; plugindata?: { data?: Record<string, unknown> }; error?: { code: number; reason: string } };

export class JanusError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The server's own connection to one Janus instance: one Janus session with one VideoRoom handle, used for the
 * requests only the server may make (create, exists, kick, destroy: they need the admin key or a room secret).
 */
export class JanusControl {
  private ws: WebSocket | null = null;
  private connecting: Promise<void> | null = null;
  private sessionId = 0;
  private handleId = 0;
  private keepalive: NodeJS.Timeout | null = null;
  private readonly pending = new Map<string, { resolve(r: JanusReply): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  private closed = false;

  constructor(public info: JanusInstanceInfo) {}

  token(): string {
    return signJanusToken(this.info.tokenSecret, Date.now() / 1000 + 24 * 3600);
  }

  /** Drops the connection (e.g. Janus restarted); the next request reconnects. */
  reset(info?: JanusInstanceInfo): void {
    if (info) this.info = info;
    this.teardown(new Error('janus connection reset'));
  }

  close(): void {
    this.closed = true;
    this.teardown(new Error('janus control closed'));
  }

  private teardown(err: Error): void {
    if (this.keepalive) clearInterval(this.keepalive);
    this.keepalive = null;
    const ws = this.ws;
    this.ws = null;
    this.connecting = null;
    if (ws) {
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
    }
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }

  private send(message: Record<string, unknown>, timeoutMs = 5_000): Promise<JanusReply> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('janus not connected'));
    const transaction = crypto.randomBytes(9).toString('base64url');
    return new Promise<JanusReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new Error(`janus did not answer ${String(message.janus)} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(transaction, { resolve, reject, timer });
      ws.send(JSON.stringify({ ...message, transaction, token: this.token() }));
    });
  }

  private async connect(): Promise<void> {
    if (this.closed) throw new Error('janus control closed');
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.handleId) return;
    this.connecting ??= (async () => {
      const ws = new WebSocket(this.info.url, 'janus-protocol');
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      this.ws = ws;
      ws.on('error', () => {});
      ws.on('close', () => {
        if (this.ws === ws) this.teardown(new Error('janus connection closed'));
      });
      ws.on('message', (raw) => {
        let msg: JanusReply;
        try {
          msg = JSON.parse(String(raw)) as JanusReply;
        } catch {
          return;
        }
        if (msg.janus === 'ack') return; // every control request we make is synchronous; wait for its answer
        const tx = typeof msg.transaction === 'string' ? msg.transaction : null;
        const p = tx ? this.pending.get(tx) : undefined;
        if (!p || !tx) return;
        clearTimeout(p.timer);
        this.pending.delete(tx);
        if (msg.janus === 'error') p.reject(new JanusError(msg.error?.code ?? 0, msg.error?.reason ?? 'janus error'));
        else p.resolve(msg);
      });
      const created = await this.send({ janus: 'create' });
      this.sessionId = Number((created.data as { id: number }).id);
      const attached = await this.send({ janus: 'attach', session_id: this.sessionId, plugin: 'janus.plugin.videoroom' });
      this.handleId = Number((attached.data as { id: number }).id);
      this.keepalive = setInterval(() => {
        this.send({ janus: 'keepalive', session_id: this.sessionId }).catch(() => {});
      }, 25_000);
      this.keepalive.unref();
    })().catch((err) => {
      this.teardown(err as Error);
      throw err;
    });
    try {
      await this.connecting;
    } finally {
      this.connecting = null;
    }
  }

  /** A synchronous VideoRoom request; resolves with the plugin's answer or throws JanusError. */
  async request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.connect();
    const reply = await this.send({ janus: 'message', session_id: this.sessionId, handle_id: this.handleId, body });
    const data = reply.plugindata?.data ?? {};
    if (data.videoroom === 'event' && typeof data.error_code === 'number') throw new JanusError(data.error_code, String(data.error));
    return data;
  }

  async roomExists(room: number): Promise<boolean> {
    const data = await this.request({ request: 'exists', room });
    return data.exists === true;
  }

  async createRoom(room: number, secret: string, options: { publishers: number; description: string; requireE2ee: boolean; bitrate?: number }): Promise<void> {
    await this.request({
      request: 'create',
      admin_key: this.info.roomAdminKey,
      room,
      secret,
      description: options.description,
      is_private: true,
      permanent: false,
      publishers: options.publishers,
      // Per publisher, sent to it as REMB: room enough for every simulcast layer (see publisherBitrateCap).
      bitrate: options.bitrate ?? 1_024_000,
      fir_freq: 10,
      audiocodec: 'opus',
      videocodec: 'vp8',
      notify_joining: true,
      audiolevel_event: false,
      require_pvtid: false,
      lock_record: true,
      // Janus refuses a publisher whose offer does not declare end-to-end encryption (jsep `e2ee: true`), and
      // every subscription of the room is then end-to-end encrypted too: it forwards frames it cannot read and
      // never mixes encrypted and plain feeds in one subscriber connection.
      require_e2ee: options.requireE2ee,
    });
  }

  async destroyRoom(room: number, secret: string): Promise<void> {
    try {
      await this.request({ request: 'destroy', room, secret, permanent: false });
    } catch (err) {
      if (!(err instanceof JanusError && err.code === 426)) throw err; // 426: no such room, already gone
    }
  }

  async kick(room: number, secret: string, feedId: number): Promise<void> {
    await this.request({ request: 'kick', room, secret, id: feedId });
  }

  /** Stops (or lets again) Janus relay one media line of a publisher to everyone: a forced mute nobody can undo from the browser. */
  async moderate(room: number, secret: string, feedId: number, mid: string, mute: boolean): Promise<void> {
    await this.request({ request: 'moderate', room, secret, id: feedId, mid, mute });
  }

  /** The room as Janus lists it (`list` with the admin key shows private rooms too): for checks of its settings. */
  async describeRoom(room: number): Promise<Record<string, unknown> | null> {
    const data = await this.request({ request: 'list', admin_key: this.info.roomAdminKey });
    return ((data.list as Record<string, unknown>[]) ?? []).find((r) => r.room === room) ?? null;
  }

  async listParticipants(room: number): Promise<{ id: number; display?: string; publisher: boolean }[]> {
    const data = await this.request({ request: 'listparticipants', room });
    return (data.participants as { id: number; display?: string; publisher: boolean }[]) ?? [];
  }
}
