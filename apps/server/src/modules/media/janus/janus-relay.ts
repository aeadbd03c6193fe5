import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FloodGuard, TokenBucket } from '../../../platform/message-rate.ts';
import { readJanusAnswer, type JanusAnswerEvent } from './janus-answers.ts';
import { checkClientMessage, emptyRelayState, handlesOf, peerConnectionsOf, type RelayContext } from './relay-policy.ts';
import { TrickleHold } from './trickle-hold.ts';
import { openUpstream } from './upstream-warmer.ts';

export interface RelayHooks {
  /** A publisher handle of this connection now sends media as `feedId` (`screen` when tagged as the screen share). */
  onPublished(handleId: number, feedId: number, videoType?: 'screen'): void;
  /** That feed stopped (unpublish, hangup, detach, kick, session gone). */
  onUnpublished(handleId: number, feedId: number): void;
  /** Janus told this connection's publisher that another publisher's feed left the room (whoever's node held it). */
  onFeedLeft?(feedId: number): void;
  /** Our own (non-Janus) messages, which carry the key `videomote`. */
  onOwnMessage(message: Record<string, unknown>): void;
  onRefused(reason: string, janus: unknown): void;
  /** Janus answered one of this connection's requests with an error, or its connection to Janus broke (Felsökning). */
  onFailed?(what: string, detail: string): void;
  onClosed(): void;
}

export interface RelayOptions {
  upstreamUrl: string;
  /** A socket to `upstreamUrl` already open or opening (upstream-warmer.ts); without it the relay opens one. */
  upstream?: WebSocket;
  /** A fresh Janus token for each relayed request (the browser never holds one). */
  janusToken(): string;
  context: RelayContext;
  hooks: RelayHooks;
  /**
   * How long to keep the Janus session after the browser's socket broke without a goodbye, for `resume` with a new
   * socket (0 or absent: close at once, as before).
   */
  resumeGraceMs?: number;
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
/** Janus messages kept for a browser that is away (resume grace): enough for a few renegotiations and events. */
const MAX_HELD = 500;

/**
 * One browser ↔ Janus pipe. Every browser message passes relay-policy's check; Janus's answers are watched only
 * to learn the ids the policy needs (sessions, handles, published feeds) and passed back unchanged.
 */
export class JanusRelay {
  private readonly upstream: WebSocket;
  private readonly queue: string[] = [];
  private readonly state = emptyRelayState();
  private readonly trickles = new TrickleHold();
  private readonly bucket = new TokenBucket(MESSAGE_RATE.burst, MESSAGE_RATE.perSecond, performance.now());
  private readonly flood = new FloodGuard(FLOOD_LIMIT, 10_000);
  /** Answered the last ping; a socket that misses one is half-open (no FIN ever came) and is dropped. */
  private alive = true;
  /** Publisher handle → its Janus feed id, and whether media flows. */
  private readonly feeds = new Map<number, { feedId: number | null; published: boolean; audioMids?: string[] }>();
  private closed = false;
  private refusals = 0;
  private client: WebSocket;
  /** While the browser is away: Janus's messages for it, and the end of its grace. */
  private held: string[] | null = null;
  private graceTimer: NodeJS.Timeout | null = null;
  /** The browser destroyed its Janus session (hang-up, reload, leaving the page): its goodbye. */
  private leaving = false;

  constructor(
    client: WebSocket,
    private readonly opts: RelayOptions,
  ) {
    this.client = client;
    this.upstream = opts.upstream ?? openUpstream(opts.upstreamUrl);
    this.upstream.on('open', () => {
      for (const m of this.queue.splice(0)) this.upstream.send(m);
    });
    this.upstream.on('message', (raw) => this.fromJanus(String(raw)));
    this.upstream.on('error', () => {});
    this.upstream.on('close', () => {
      if (!this.closed) this.opts.hooks.onFailed?.('upstream', 'media server unavailable');
      this.close(CLOSE_MEDIA_GONE, 'media server unavailable');
    });
    this.listen(client);
  }

  private listen(client: WebSocket): void {
    client.on('message', (raw, isBinary) => {
      if (client !== this.client) return;
      if (isBinary) return this.close(1003, 'text only');
      this.fromBrowser(String(raw));
    });
    client.on('close', (code) => {
      if (client === this.client) this.clientGone(code);
    });
    client.on('error', () => {
      if (client === this.client) this.close(1011, 'error');
    });
    client.on('pong', () => {
      if (client === this.client) this.alive = true;
    });
  }

  /** Called every heartbeat interval: drops a socket that did not answer the previous ping. */
  heartbeat(): void {
    // A browser that is away is waited for by its resume grace, not by pings.
    if (this.closed || this.held) return;
    if (!this.alive) {
      // Half-open (an address change, a dead link): as if it broke, so the same browser may still resume.
      this.client.terminate();
      return this.clientGone(1006);
    }
    this.alive = false;
    this.client.ping();
  }

  /**
   * The browser's socket closed. Only a socket that broke without a close frame (1006: a lost network) waits for
   * the same browser to come back with a new socket; any close the browser sent (janus.js closes without a code
   * when the page unloads) or a browser with no Janus session left ends the relay.
   */
  private clientGone(code: number): void {
    const grace = this.opts.resumeGraceMs ?? 0;
    if (this.closed) return;
    if (grace <= 0 || this.leaving || code !== 1006 || this.state.sessions.size === 0) return this.close(1000, 'bye');
    this.held ??= [];
    this.graceTimer ??= setTimeout(() => this.close(1001, 'not resumed'), grace);
  }

  /** The page said it is going away (pagehide): when its socket closes, the connection ends at once. */
  goodbye(): void {
    this.leaving = true;
  }

  /**
   * The same browser is back on a new socket (its old one broke, or is still half-open after an address change):
   * the new socket takes over, with the Janus session, handles and feeds as they are, and gets what Janus sent
   * meanwhile. Answers false when the relay has ended.
   */
  resume(client: WebSocket): boolean {
    if (this.closed) return false;
    const old = this.client;
    this.client = client;
    if (old !== client && (old.readyState === WebSocket.OPEN || old.readyState === WebSocket.CONNECTING)) old.terminate();
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    const held = this.held ?? [];
    this.held = null;
    this.alive = true;
    this.listen(client);
    for (const text of held) if (client.readyState === WebSocket.OPEN) client.send(text);
    return true;
  }

  /** This socket's Janus handles, pending attaches included. */
  handles(): number {
    return handlesOf(this.state);
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
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.held = null;
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
    if (expect.kind === 'claim') {
      // The session never left Janus (this relay held it on its own socket): answer as Janus answers a claim.
      this.sendOwn({ janus: 'success', transaction: message.transaction, session_id: expect.sessionId });
      return;
    }
    // janus.js destroys its session when the page goes away or hangs up: no resume is coming.
    if (expect.kind === 'destroy') this.leaving = true;
    if (expect.kind !== 'none') this.state.pending.set(message.transaction as string, expect);
    const out = JSON.stringify({ ...message, token: this.opts.janusToken() });
    // The policy classed every offer the browser may send (a publisher's) as 'publish'.
    if (expect.kind === 'publish') this.trickles.offerSent(expect.handleId, message.transaction as string);
    else if (message.janus === 'trickle' && typeof message.handle_id === 'number' && this.trickles.hold(message.handle_id, out)) return;
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
    if (typeof msg.transaction === 'string' && this.upstream.readyState === WebSocket.OPEN) {
      for (const trickle of this.trickles.answered(msg.transaction)) this.upstream.send(trickle);
    }
    if (this.held) {
      if (this.held.length < MAX_HELD) this.held.push(text);
    } else this.toBrowser(text);
  }

  /** Keeps the ids the policy needs as Janus answers (janus-answers.ts reads the message), and tells the server. */
  private learn(msg: Json): void {
    const { settles, events } = readJanusAnswer(msg, this.state.pending);
    if (settles !== null) this.state.pending.delete(settles);
    for (const e of events) this.apply(e);
  }

  private apply(e: JanusAnswerEvent): void {
    switch (e.kind) {
      case 'failed':
        return this.opts.hooks.onFailed?.(e.request, e.detail);
      case 'session-created':
        this.state.sessions.add(e.sessionId);
        return;
      case 'handle-attached':
        this.state.handles.set(e.handleId, { sessionId: e.sessionId, role: 'none', ...(e.videoType ? { videoType: e.videoType } : {}) });
        return;
      case 'join-refused': {
        const handle = this.state.handles.get(e.handleId);
        if (handle) handle.role = 'none';
        return;
      }
      case 'publisher-answered': {
        const f = this.feeds.get(e.handleId) ?? { feedId: null, published: false };
        if (e.feedId !== undefined) f.feedId = e.feedId;
        if (e.audioMids) f.audioMids = e.audioMids;
        this.feeds.set(e.handleId, f);
        if (e.started && f.feedId && !f.published) {
          f.published = true;
          this.opts.hooks.onPublished(e.handleId, f.feedId, this.state.handles.get(e.handleId)?.videoType);
        }
        return;
      }
      case 'unpublished':
        return this.markUnpublished(e.handleId);
      case 'handle-gone':
        return this.forgetHandle(e.handleId);
      case 'session-gone':
        return this.dropSession(e.sessionId);
      case 'feed-left':
        return this.opts.hooks.onFeedLeft?.(e.feedId);
    }
  }

  private markUnpublished(handleId: number): void {
    const f = this.feeds.get(handleId);
    if (f?.published && f.feedId) {
      f.published = false;
      this.opts.hooks.onUnpublished(handleId, f.feedId);
    }
  }

  /** A handle Janus no longer has: its feed is unpublished and it no longer counts under the caps. */
  private forgetHandle(handleId: number): void {
    this.markUnpublished(handleId);
    this.state.handles.delete(handleId);
    this.feeds.delete(handleId);
  }

  private dropSession(sessionId: number): void {
    this.state.sessions.delete(sessionId);
    for (const [id, h] of this.state.handles) if (h.sessionId === sessionId) this.forgetHandle(id);
  }
}
