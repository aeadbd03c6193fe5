import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FloodGuard, TokenBucket } from '../../chat/rate-limit.ts';
import { checkClientMessage, emptyRelayState, peerConnectionsOf, type RelayContext } from './relay-policy.ts';

export interface RelayHooks {
  /** A publisher handle of this connection now sends media as `feedId` (`screen` when tagged as the screen share). */
  onPublished(handleId: number, feedId: number, videoType?: 'screen'): void;
  /** That feed stopped (unpublish, hangup, detach, kick, session gone). */
  onUnpublished(handleId: number, feedId: number): void;
  /** Our own (non-Janus) messages, which carry the key `videomote`. */
  onOwnMessage(message: Record<string, unknown>): void;
  onRefused(reason: string, janus: unknown): void;
  /** Janus answered one of this connection's requests with an error, or its connection to Janus broke (Felsökning). */
  onFailed?(what: string, detail: string): void;
  onClosed(): void;
}

export interface RelayOptions {
  upstreamUrl: string;
  /** A fresh Janus token for each relayed request (the browser never holds one). */
  janusToken(): string;
  context: RelayContext;
  hooks: RelayHooks;
}

type Json = Record<string, unknown>;

/** Close codes the web client understands: 4001 refused at connect, 4002 removed by a moderator, 4003 media server gone. */
export const CLOSE_MEDIA_GONE = 4003;
export const CLOSE_KICKED = 4002;
/** The session behind the socket ended (logout, expiry): like a kick, the web does not reconnect. */
export const CLOSE_SESSION_ENDED = 4004;
/** The booking changed this connection's rights (a presenter made a participant): the page connects again to learn them. */
export const CLOSE_RIGHTS_CHANGED = 4009;
const MAX_REFUSALS = 50;
/**
 * Messages per socket: janus.js joining a full meeting with one subscriber handle per feed sends about seven
 * messages a feed (attach, join, answer, trickled candidates), some 80 at once; afterwards a keepalive every 25 s.
 */
export const MESSAGE_RATE = { burst: 200, perSecond: 20 };
/** Messages over the rate within 10 s after which the socket is closed (1008) as a flood. */
const FLOOD_LIMIT = 50;
/** Browser messages held while the connection to Janus opens; janus.js sends one or two before any answer. */
export const MAX_QUEUED = 32;
// A browser this far behind on reading is stalled; holding more for it would cost the whole server memory.
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * One browser ↔ Janus pipe. Every browser message passes relay-policy's check; Janus's answers are watched only
 * to learn the ids the policy needs (sessions, handles, published feeds) and passed back unchanged.
 */
export class JanusRelay {
  private readonly upstream: WebSocket;
  private readonly queue: string[] = [];
  private readonly state = emptyRelayState();
  private readonly bucket = new TokenBucket(MESSAGE_RATE.burst, MESSAGE_RATE.perSecond, performance.now());
  private readonly flood = new FloodGuard(FLOOD_LIMIT, 10_000);
  /** Answered the last ping; a socket that misses one is half-open (no FIN ever came) and is dropped. */
  private alive = true;
  /** Publisher handle → its Janus feed id, and whether media flows. */
  private readonly feeds = new Map<number, { feedId: number | null; published: boolean; audioMids?: string[] }>();
  private closed = false;
  private refusals = 0;

  constructor(
    private readonly client: WebSocket,
    private readonly opts: RelayOptions,
  ) {
    this.upstream = new WebSocket(opts.upstreamUrl, 'janus-protocol', { maxPayload: 1024 * 1024 });
    this.upstream.on('open', () => {
      for (const m of this.queue.splice(0)) this.upstream.send(m);
    });
    this.upstream.on('message', (raw) => this.fromJanus(String(raw)));
    this.upstream.on('error', () => {});
    this.upstream.on('close', () => {
      if (!this.closed) this.opts.hooks.onFailed?.('upstream', 'media server unavailable');
      this.close(CLOSE_MEDIA_GONE, 'media server unavailable');
    });
    client.on('message', (raw, isBinary) => {
      if (isBinary) return this.close(1003, 'text only');
      this.fromBrowser(String(raw));
    });
    client.on('close', () => this.close(1000, 'bye'));
    client.on('error', () => this.close(1011, 'error'));
    client.on('pong', () => (this.alive = true));
  }

  /** Called every heartbeat interval: drops a socket that did not answer the previous ping. */
  heartbeat(): void {
    if (this.closed) return;
    if (!this.alive) {
      this.client.terminate();
      return this.close(1006, 'no pong');
    }
    this.alive = false;
    this.client.ping();
  }

  /** This socket's joined publisher and subscriber handles (each one PeerConnection on Janus), pending joins included. */
  peerConnections(): { peerConnections: number; publishers: number } {
    return peerConnectionsOf(this.state);
  }

  get context(): RelayContext {
    return this.opts.context;
  }

  /** Sends one of our own messages to the browser. */
  sendOwn(message: Json): void {
    this.toBrowser(JSON.stringify(message));
  }

  private toBrowser(text: string): void {
    if (this.client.readyState !== WebSocket.OPEN) return;
    if (this.client.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.client.terminate();
      return this.close(1008, 'not reading');
    }
    this.client.send(text);
  }

  /** The audio `mid`s Janus reported for a published feed (moderation mutes them by mid). */
  audioMids(feedId: number): string[] {
    for (const f of this.feeds.values()) if (f.feedId === feedId && f.published) return f.audioMids ?? [];
    return [];
  }

  publishedFeeds(): number[] {
    return [...this.feeds.values()].filter((f) => f.published && f.feedId).map((f) => f.feedId!);
  }

  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    this.closed = true;
    for (const [handleId, f] of this.feeds) if (f.published && f.feedId) this.opts.hooks.onUnpublished(handleId, f.feedId);
    this.feeds.clear();
    // Closing the upstream socket makes Janus drop this connection's sessions, handles and feeds.
    if (this.upstream.readyState === WebSocket.OPEN || this.upstream.readyState === WebSocket.CONNECTING) this.upstream.terminate();
    if (this.client.readyState === WebSocket.OPEN) this.client.close(code, reason);
    this.opts.hooks.onClosed();
  }

  /** A browser message that arrived before the relay was wired. */
  receive(text: string): void {
    this.fromBrowser(text);
  }

  private fromBrowser(text: string): void {
    if (this.closed) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.close(1007, 'not JSON');
    }
    const now = performance.now();
    if (!this.bucket.take(now)) {
      // SECURITY: a client that keeps sending over the rate is closed rather than relayed or answered forever.
      if (this.flood.refuse(now)) return this.close(1008, 'too many messages');
      return this.answerRefusal(msg, 'too many messages', false);
    }
    if (msg && typeof msg === 'object' && 'videomote' in msg) return this.opts.hooks.onOwnMessage(msg as Json);
    const result = checkClientMessage(msg, this.opts.context, this.state);
    if (!result.ok) return this.answerRefusal(msg, result.reason, true);
    const { message, expect } = result;
    if (expect.kind !== 'none') this.state.pending.set(message.transaction as string, expect);
    const out = JSON.stringify({ ...message, token: this.opts.janusToken() });
    if (this.upstream.readyState === WebSocket.OPEN) this.upstream.send(out);
    else if (this.upstream.readyState === WebSocket.CONNECTING) {
      if (this.queue.length >= MAX_QUEUED) return this.close(1008, 'too many messages before the media server answered');
      this.queue.push(out);
    }
  }

  private answerRefusal(msg: unknown, reason: string, record: boolean): void {
    const m = (msg && typeof msg === 'object' ? msg : {}) as Json;
    // A client that keeps probing is cut off rather than answered (and logged) forever.
    if (++this.refusals > MAX_REFUSALS) return this.close(1008, 'too many refused requests');
    if (record) this.opts.hooks.onRefused(reason, m.janus);
    // Answer like Janus would, so janus.js fails the one call instead of hanging.
    this.sendOwn({
      janus: 'error',
      transaction: typeof m.transaction === 'string' ? m.transaction : undefined,
      session_id: typeof m.session_id === 'number' ? m.session_id : undefined,
      error: { code: 403, reason: `Refused by Videomöte: ${reason}` },
    });
  }

  private fromJanus(text: string): void {
    let msg: Json;
    try {
      msg = JSON.parse(text) as Json;
    } catch {
      return;
    }
    this.learn(msg);
    this.toBrowser(text);
  }

  private learn(msg: Json): void {
    const tx = typeof msg.transaction === 'string' ? msg.transaction : null;
    const expect = tx ? this.state.pending.get(tx) : undefined;
    const janus = msg.janus;
    const data = ((msg.plugindata as Json | undefined)?.data ?? {}) as Json;
    const sender = typeof msg.sender === 'number' ? msg.sender : null;

    if (expect && janus !== 'ack') {
      this.state.pending.delete(tx!);
      const ok = janus === 'success' || (janus === 'event' && data.error_code === undefined);
      if (!ok) {
        const error = (msg.error ?? {}) as Json;
        const code = data.error_code ?? error.code;
        const reason = data.error ?? error.reason;
        this.opts.hooks.onFailed?.(expect.kind, `${typeof code === 'number' ? `${code} ` : ''}${typeof reason === 'string' ? reason : String(janus)}`);
      }
      switch (expect.kind) {
        case 'create':
          if (ok) this.state.sessions.add(Number((msg.data as Json).id));
          break;
        case 'attach':
          if (ok) this.state.handles.set(Number((msg.data as Json).id), { sessionId: expect.sessionId, role: 'none', ...(expect.videoType ? { videoType: expect.videoType } : {}) });
          break;
        case 'subscriber-join': {
          // A refused join (no such feed yet, room full) frees the handle, and its place under the caps.
          const handle = this.state.handles.get(expect.handleId);
          if (!ok && handle) handle.role = 'none';
          break;
        }
        case 'publisher-join':
        case 'publish': {
          const handle = this.state.handles.get(expect.handleId);
          if (!ok) {
            // A failed join leaves the handle free to try again.
            if (handle && expect.kind === 'publisher-join') handle.role = 'none';
            break;
          }
          const f = this.feeds.get(expect.handleId) ?? { feedId: null, published: false };
          if (data.videoroom === 'joined' && typeof data.id === 'number') f.feedId = data.id;
          if (Array.isArray(data.streams)) {
            f.audioMids = (data.streams as Json[]).filter((s) => s.type === 'audio' && typeof s.mid === 'string').map((s) => s.mid as string);
          }
          this.feeds.set(expect.handleId, f);
          if (expect.kind === 'publish' && f.feedId && !f.published && (data.configured === 'ok' || msg.jsep)) {
            f.published = true;
            this.opts.hooks.onPublished(expect.handleId, f.feedId, handle?.videoType);
          }
          break;
        }
        case 'unpublish':
          this.markUnpublished(expect.handleId);
          break;
        case 'detach':
          this.markUnpublished(expect.handleId);
          if (ok) {
            this.state.handles.delete(expect.handleId);
            this.feeds.delete(expect.handleId);
          }
          break;
        case 'destroy':
          this.dropSession(expect.sessionId);
          break;
      }
    }

    if (sender !== null) {
      // Janus-initiated endings: the PeerConnection closed, the handle was detached, or the server kicked us.
      if (janus === 'hangup') this.markUnpublished(sender);
      if (janus === 'detached') {
        this.markUnpublished(sender);
        this.state.handles.delete(sender);
        this.feeds.delete(sender);
      }
      if (janus === 'event' && (data.unpublished === 'ok' || data.leaving === 'ok')) this.markUnpublished(sender);
    }
    if (janus === 'timeout' && typeof msg.session_id === 'number') this.dropSession(msg.session_id);
  }

  private markUnpublished(handleId: number): void {
    const f = this.feeds.get(handleId);
    if (f?.published && f.feedId) {
      f.published = false;
      this.opts.hooks.onUnpublished(handleId, f.feedId);
    }
  }

  private dropSession(sessionId: number): void {
    this.state.sessions.delete(sessionId);
    for (const [id, h] of this.state.handles) {
      if (h.sessionId !== sessionId) continue;
      this.markUnpublished(id);
      this.state.handles.delete(id);
      this.feeds.delete(id);
    }
  }
}
