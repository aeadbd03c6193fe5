// Long on purpose: the whole check at the trust boundary between browsers and Janus, one request kind after another,
// kept in one pure file so a review reads all of what a browser may send (relay-policy.test.ts beside it).
import { SCREEN_HANDLE_TAG, type Capabilities } from '@videomote/contract/media';
import type { PeerConnectionLimits } from '../../../platform/media-capacity.ts';
import { screenPublishRefusal } from './screen-share-rule.ts';
import { fullScope, holdRefusal, type HoldCounts } from '../../../platform/media-holds.ts';

/**
 * The check every Janus API message from a browser passes before the server relays it (ARCHITECTURE.md:
 * "secrets stay on the server"). Pure: it reads the connection's context and state and answers with the message
 * to send upstream (display and token are the server's, never the browser's) or a refusal with a reason.
 */
export interface RelayContext {
  /** The meeting's own VideoRoom: the only room this connection may address. */
  roomId: number;
  /** Re-derived when the booking changes: a presenter made a participant is refused publishing at once. */
  capabilities: Capabilities;
  /** The server-made Janus `display` (ConnectionData JSON). */
  display: string;
  /**
   * The peer connections (joined publisher and subscriber handles, this socket's included) of the person behind this
   * socket and of the whole meeting, across the person's sockets; with the limits they are held to. Absent: no limit
   * beyond this socket's own.
   */
  peerConnections?: () => PeerConnectionUsage;
  /**
   * What the person, session and client address behind this socket hold across all their sockets, meetings and app
   * nodes (handles, PeerConnections), with the caps (platform/media-holds.ts). Absent: not checked.
   */
  holds?: () => HoldUsage;
  /** Whether another connection of the meeting shares a screen now (read from the room's live state at check time). */
  otherScreenShare?: () => boolean;
  /** Whether a feed is published in this meeting's room now, by the server's own list (absent: not checked). */
  roomFeed?(feedId: number): boolean;
}

export interface HoldUsage {
  held: Record<'handles' | 'peerConnections', HoldCounts>;
  caps: Record<'handles' | 'peerConnections', HoldCounts>;
}

/** The refusal when the holder already holds its cap of `resource` in some scope; null while there is room. */
function holdsRefusal(ctx: RelayContext, resource: 'handles' | 'peerConnections'): string | null {
  if (!ctx.holds) return null;
  const usage = ctx.holds();
  const scope = fullScope(usage.held[resource], usage.caps[resource]);
  return scope ? holdRefusal(resource, scope) : null;
}

export interface PeerConnectionUsage {
  person: { peerConnections: number; publishers: number };
  meeting: { peerConnections: number };
  limits: PeerConnectionLimits;
}


export type HandleRole = 'none' | 'publisher' | 'subscriber';

export interface HandleState {
  sessionId: number;
  role: HandleRole;
  /** What a publisher on this handle sends, as its owner tagged it on attach (untagged: decided by the server). */
  videoType?: 'screen';
}

export interface RelayState {
  sessions: Set<number>;
  handles: Map<number, HandleState>;
  /**
   * Requests relayed to Janus and not answered yet, by transaction. SECURITY: a `create` or `attach` counts against
   * the caps from the moment it is relayed, so a burst sent before Janus answers cannot pass them.
   */
  pending: Map<string, Expectation>;
}

export function emptyRelayState(): RelayState {
  return { sessions: new Set(), handles: new Map(), pending: new Map() };
}

/** What the relay must remember about the request, to learn ids and feeds from Janus's answer. */
export type Expectation =
  | { kind: 'create' }
  | { kind: 'attach'; sessionId: number; videoType?: 'screen' }
  | { kind: 'publisher-join'; handleId: number }
  | { kind: 'subscriber-join'; handleId: number }
  | { kind: 'publish'; handleId: number }
  | { kind: 'unpublish'; handleId: number }
  | { kind: 'detach'; handleId: number }
  | { kind: 'destroy'; sessionId: number }
  /** A resumed browser claims its session on the new socket: the relay answers, the session never left Janus. */
  | { kind: 'claim'; sessionId: number }
  | { kind: 'none' };

export type PolicyResult = { ok: true; message: Record<string, unknown>; expect: Expectation } | { ok: false; reason: string };

export const MAX_SESSIONS = 2;
export const MAX_HANDLES_PER_SESSION = 40;
/** Requests awaiting Janus's answer on one socket; a browser has a handful in flight, never dozens. */
export const MAX_PENDING = 64;
/** Publisher handles one person may have joined: camera and screen share, in two tabs. */
export const MAX_PUBLISHERS_PER_PERSON = 4;
export const VIDEOROOM = 'janus.plugin.videoroom';

// Keys that carry room or server credentials. A browser never needs them: refusing them outright (rather than
// stripping) makes probing visible and keeps the rule simple.
const SECRET_KEYS = new Set(['secret', 'admin_key', 'new_secret', 'pin', 'new_pin', 'token', 'apisecret', 'admin_secret', 'allowed']);

// VideoRoom requests a participant may make; everything else (create, destroy, edit, exists, list, kick,
// moderate, allowed, recording, RTP forwarding...) is for the server alone.
const PUBLISHER_JOIN = new Set(['join', 'joinandconfigure']);
const SUBSCRIBER_ONLY = new Set(['start', 'pause', 'switch', 'subscribe', 'unsubscribe', 'update']);
const ALLOWED_REQUESTS = new Set(['join', 'joinandconfigure', 'configure', 'publish', 'unpublish', 'leave', 'listparticipants', ...SUBSCRIBER_ONLY]);
// Recording and forwarding options are refused even on allowed requests.
const FORBIDDEN_BODY_KEYS = new Set(['record', 'filename', 'rtp_forward', 'descriptions_secret']);

export function findSecretKey(value: unknown, depth = 0): string | null {
  if (depth > 8 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const v of value) {
      const k = findSecretKey(v, depth + 1);
      if (k) return k;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    if (SECRET_KEYS.has(key.toLowerCase())) return key;
    const k = findSecretKey(v, depth + 1);
    if (k) return k;
  }
  return null;
}

const refuse = (reason: string): PolicyResult => ({ ok: false, reason });
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

export function checkClientMessage(raw: unknown, ctx: RelayContext, state: RelayState): PolicyResult {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return refuse('not a Janus message');
  const msg = { ...(raw as Record<string, unknown>) };
  if (typeof msg.transaction !== 'string' || msg.transaction.length < 1 || msg.transaction.length > 64) return refuse('missing transaction');
  const secretKey = findSecretKey(msg);
  if (secretKey) return refuse(`"${secretKey}" is not accepted from a browser`);
  // An answer is matched to its request by transaction: a reused one would make a pending request uncountable.
  if (state.pending.has(msg.transaction)) return refuse('transaction already in use');
  if (state.pending.size >= MAX_PENDING) return refuse('too many requests awaiting an answer');

  const sessionOk = () => isId(msg.session_id) && state.sessions.has(msg.session_id);
  const handle = () => (isId(msg.handle_id) ? state.handles.get(msg.handle_id) : undefined);
  const handleOk = () => sessionOk() && handle()?.sessionId === msg.session_id;

  switch (msg.janus) {
    case 'create':
      if (state.sessions.size + countPending(state, (e) => e.kind === 'create') >= MAX_SESSIONS) return refuse('too many sessions');
      delete msg.session_id;
      return { ok: true, message: pick(msg, ['janus', 'transaction']), expect: { kind: 'create' } };
    case 'keepalive':
    case 'claim':
      if (!sessionOk()) return refuse('unknown session');
      if (msg.janus === 'claim') return { ok: true, message: pick(msg, ['janus', 'transaction', 'session_id']), expect: { kind: 'claim', sessionId: msg.session_id as number } };
      return { ok: true, message: pick(msg, ['janus', 'transaction', 'session_id']), expect: { kind: 'none' } };
    case 'destroy':
      if (!sessionOk()) return refuse('unknown session');
      return { ok: true, message: pick(msg, ['janus', 'transaction', 'session_id']), expect: { kind: 'destroy', sessionId: msg.session_id as number } };
    case 'attach': {
      if (!sessionOk()) return refuse('unknown session');
      if (msg.plugin !== VIDEOROOM) return refuse('only the videoroom plugin');
      const count = [...state.handles.values()].filter((h) => h.sessionId === msg.session_id).length;
      const pending = countPending(state, (e) => e.kind === 'attach' && e.sessionId === msg.session_id);
      if (count + pending >= MAX_HANDLES_PER_SESSION) return refuse('too many handles');
      const held = holdsRefusal(ctx, 'handles');
      if (held) return refuse(held);
      return {
        ok: true,
        message: pick(msg, ['janus', 'transaction', 'session_id', 'plugin', 'opaque_id', 'loop_index']),
        expect: { kind: 'attach', sessionId: msg.session_id as number, ...(msg.opaque_id === SCREEN_HANDLE_TAG ? { videoType: 'screen' as const } : {}) },
      };
    }
    case 'detach':
    case 'hangup':
      if (!handleOk()) return refuse('unknown handle');
      return {
        ok: true,
        message: pick(msg, ['janus', 'transaction', 'session_id', 'handle_id']),
        expect: msg.janus === 'detach' ? { kind: 'detach', handleId: msg.handle_id as number } : { kind: 'unpublish', handleId: msg.handle_id as number },
      };
    case 'trickle':
      if (!handleOk()) return refuse('unknown handle');
      return { ok: true, message: pick(msg, ['janus', 'transaction', 'session_id', 'handle_id', 'candidate', 'candidates']), expect: { kind: 'none' } };
    case 'message':
      if (!handleOk()) return refuse('unknown handle');
      return checkPluginMessage(msg, ctx, state, handle()!, msg.handle_id as number);
    default:
      return refuse(`"${String(msg.janus)}" is not allowed`);
  }
}

function checkPluginMessage(msg: Record<string, unknown>, ctx: RelayContext, state: RelayState, handle: HandleState, handleId: number): PolicyResult {
  const body = msg.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse('missing body');
  const b = { ...(body as Record<string, unknown>) };
  const request = b.request;
  if (typeof request !== 'string' || !ALLOWED_REQUESTS.has(request)) return refuse(`request "${String(request)}" is not allowed`);
  for (const key of Object.keys(b)) if (FORBIDDEN_BODY_KEYS.has(key)) return refuse(`"${key}" is not allowed`);
  if ('room' in b && b.room !== ctx.roomId) return refuse('another room');
  const jsep = msg.jsep as { type?: unknown } | undefined;
  if (jsep !== undefined && (jsep === null || typeof jsep !== 'object')) return refuse('bad jsep');
  const out = (newBody: Record<string, unknown>, expect: Expectation): PolicyResult => ({
    ok: true,
    message: { ...pick(msg, ['janus', 'transaction', 'session_id', 'handle_id', 'jsep']), body: newBody },
    expect,
  });

  if (request === 'listparticipants') {
    if (b.room !== ctx.roomId) return refuse('another room');
    return out({ request, room: ctx.roomId }, { kind: 'none' });
  }

  if (PUBLISHER_JOIN.has(request)) {
    if (b.room !== ctx.roomId) return refuse('another room');
    if (handle.role !== 'none') return refuse('handle already joined');
    const ptype = b.ptype;
    if (ptype === 'subscriber' && request === 'join') {
      if (!ctx.capabilities.subscribe) return refuse('no subscribe capability');
      if (jsep) return refuse('a subscriber join carries no offer');
      const full = peerConnectionRefusal(state, ctx, 'subscriber');
      if (full) return refuse(full);
      const feeds = checkAddedFeeds(b.streams, ctx);
      if (feeds) return refuse(feeds);
      handle.role = 'subscriber';
      return out(subscriberBody(b, ctx), { kind: 'subscriber-join', handleId });
    }
    if (ptype !== 'publisher') return refuse('unknown ptype');
    if (!ctx.capabilities.publish) return refuse('no publish capability');
    if ('id' in b) return refuse('the server chooses publisher ids');
    if (request === 'join' && jsep) return refuse('offer belongs to configure');
    if (jsep && (jsep as { type?: unknown }).type !== 'offer') return refuse('bad jsep');
    const full = peerConnectionRefusal(state, ctx, 'publisher');
    if (full) return refuse(full);
    const screenRefusal = screenCheck(handle, ctx, !!jsep);
    if (screenRefusal) return refuse(screenRefusal);
    handle.role = 'publisher';
    // The display is the server's: a client cannot claim another identity.
    const newBody = { ...publisherMediaBody(b), request, ptype, room: ctx.roomId, display: ctx.display };
    return out(newBody, request === 'joinandconfigure' && jsep ? { kind: 'publish', handleId } : { kind: 'publisher-join', handleId });
  }

  if (request === 'configure' || request === 'publish' || request === 'unpublish' || request === 'leave') {
    if (handle.role === 'publisher') {
      if (request === 'unpublish' || request === 'leave') {
        if (jsep) return refuse('unexpected jsep');
        return out({ request }, { kind: 'unpublish', handleId });
      }
      if (!ctx.capabilities.publish) return refuse('no publish capability');
      if (jsep && (jsep as { type?: unknown }).type !== 'offer') return refuse('bad jsep');
      const screenRefusal = screenCheck(handle, ctx, !!jsep);
      if (screenRefusal) return refuse(screenRefusal);
      const newBody: Record<string, unknown> = { ...publisherMediaBody(b), request };
      if ('display' in b) newBody.display = ctx.display;
      return out(newBody, jsep ? { kind: 'publish', handleId } : { kind: 'none' });
    }
    if (handle.role === 'subscriber') {
      if (request === 'publish' || request === 'unpublish') return refuse('a subscriber does not publish');
      if (jsep) return refuse('a subscriber sends no offer');
      if (request === 'configure' && 'streams' in b) {
        const layers = layerConfigure(b.streams);
        if (typeof layers === 'string') return refuse(layers);
        return out({ ...subscriberBody(b, ctx), streams: layers }, { kind: 'none' });
      }
      return out(subscriberBody(b, ctx), { kind: 'none' });
    }
    return refuse('join the room first');
  }

  if (SUBSCRIBER_ONLY.has(request)) {
    if (handle.role !== 'subscriber') return refuse('not a subscriber handle');
    if (jsep && (jsep as { type?: unknown }).type !== 'answer') return refuse('a subscriber sends only answers');
    // Every request that adds feeds to the one subscriber connection names them: each must be of this room.
    const added = request === 'update' ? b.subscribe : request === 'subscribe' || request === 'switch' ? b.streams : undefined;
    const feeds = added === undefined ? null : checkAddedFeeds(added, ctx);
    if (feeds) return refuse(feeds);
    return out(subscriberBody(b, ctx), { kind: 'none' });
  }
  return refuse(`request "${request}" is not allowed`);
}

function countPending(state: RelayState, which: (e: Expectation) => boolean): number {
  let n = 0;
  for (const e of state.pending.values()) if (which(e)) n += 1;
  return n;
}

/** This socket's Janus handles, bare ones and attaches not answered yet included (each is held on Janus). */
export function handlesOf(state: RelayState): number {
  return state.handles.size + countPending(state, (e) => e.kind === 'attach');
}

/** A joined publisher or subscriber handle negotiates one PeerConnection: one UDP port on Janus (bundle + rtcp-mux). */
export function peerConnectionsOf(state: RelayState): { peerConnections: number; publishers: number } {
  let peerConnections = 0;
  let publishers = 0;
  for (const h of state.handles.values()) {
    if (h.role !== 'none') peerConnections += 1;
    if (h.role === 'publisher') publishers += 1;
  }
  return { peerConnections, publishers };
}

/**
 * Whether one more handle may join (and so make Janus open one more PeerConnection and take one more port). The
 * join itself counts from the moment it is relayed (the handle's role is set then), so a burst cannot pass the
 * limits. A multistream subscriber handle (one `join` carrying many `streams`, then `subscribe`/`unsubscribe`/
 * `update`) is one PeerConnection however many feeds it carries. Null when it may.
 */
export function peerConnectionRefusal(state: RelayState, ctx: RelayContext, kind: 'publisher' | 'subscriber'): string | null {
  if (!ctx.peerConnections) return holdsRefusal(ctx, 'peerConnections');
  const usage = ctx.peerConnections();
  if (kind === 'publisher' && usage.person.publishers >= MAX_PUBLISHERS_PER_PERSON) return 'too many publishers';
  if (usage.person.peerConnections >= usage.limits.perPerson) return 'too many peer connections for one participant';
  if (usage.meeting.peerConnections >= usage.limits.perMeeting) return 'too many peer connections in this meeting';
  return holdsRefusal(ctx, 'peerConnections');
}

const screenCheck = (handle: HandleState, ctx: RelayContext, offer: boolean): string | null =>
  handle.videoType === 'screen' ? screenPublishRefusal({ allowed: ctx.capabilities.screenShare, offer, otherSharing: ctx.otherScreenShare?.() ?? false }) : null;

/**
 * The feeds a subscriber asks to add: a list of stream entries, each naming one feed by its numeric id, published
 * in this meeting's room. Janus looks feeds up in the room the handle joined, and we check the same against our
 * own list, so that no browser can add a feed of another meeting. Besides the feed, an entry may name one of its
 * mids (and, to `switch`, the subscriber's mid) and the simulcast layer to start at; nothing else reaches Janus.
 * Answers the refusal reason, or null.
 */
function checkAddedFeeds(streams: unknown, ctx: RelayContext): string | null {
  if (!Array.isArray(streams) || streams.length === 0) return 'streams must list feeds';
  if (streams.length > MAX_STREAMS_PER_REQUEST) return 'too many streams';
  for (const s of streams) {
    if (s === null || typeof s !== 'object' || Array.isArray(s)) return 'bad stream entry';
    const e = s as Record<string, unknown>;
    if (!isId(e.feed)) return 'a stream names its feed by id';
    if ('room' in e) return 'another room';
    for (const key of Object.keys(e)) if (!ADDED_FEED_KEYS.has(key)) return `"${key}" is not a stream option`;
    for (const key of ['mid', 'sub_mid'] as const) if (key in e && !isMid(e[key])) return `${key} must be a mid`;
    const layer = layerRefusal(e);
    if (layer) return layer;
    if (ctx.roomFeed && !ctx.roomFeed(e.feed)) return 'not a feed of this room';
  }
  return null;
}
const ADDED_FEED_KEYS = new Set(['feed', 'mid', 'sub_mid', 'substream', 'temporal']);

const isMid = (v: unknown): boolean => typeof v === 'string' && /^[A-Za-z0-9_-]{1,16}$/.test(v);

/** A simulcast layer named in a stream entry is 0, 1 or 2. */
function layerRefusal(e: Record<string, unknown>): string | null {
  for (const key of ['substream', 'temporal'] as const) {
    if (key in e && !(Number.isInteger(e[key]) && (e[key] as number) >= 0 && (e[key] as number) <= 2)) return `${key} is 0, 1 or 2`;
  }
  return null;
}

/**
 * A subscriber's layer choice (adaptive quality): `configure` with one entry per `mid` of its own connection, saying
 * whether Janus forwards it (`send`) and which simulcast layer (`substream`, `temporal`: 0–2). Janus applies it only
 * to the handle's own mids, so no other check is needed; only these keys pass, typed, so the browser cannot reach
 * any other per-stream option through it. Answers the entries to relay, or the refusal reason.
 */
function layerConfigure(streams: unknown): Record<string, unknown>[] | string {
  if (!Array.isArray(streams) || streams.length === 0) return 'streams must list mids';
  if (streams.length > MAX_STREAMS_PER_REQUEST) return 'too many streams';
  const out: Record<string, unknown>[] = [];
  for (const s of streams) {
    if (s === null || typeof s !== 'object' || Array.isArray(s)) return 'bad stream entry';
    const e = s as Record<string, unknown>;
    if (!isMid(e.mid)) return 'a stream names its mid';
    for (const key of Object.keys(e)) if (!LAYER_KEYS.has(key)) return `"${key}" is not a layer option`;
    if ('send' in e && typeof e.send !== 'boolean') return 'send is true or false';
    const layer = layerRefusal(e);
    if (layer) return layer;
    out.push(pick(e, [...LAYER_KEYS]));
  }
  return out;
}
const LAYER_KEYS = new Set(['mid', 'send', 'substream', 'temporal']);

/** More than a room holds (24 publishers, audio and video each, plus a share): a bogus request. */
const MAX_STREAMS_PER_REQUEST = 64;

// Publisher media options we pass on; anything else in the body is dropped.
const PUBLISHER_KEYS = ['audio', 'video', 'data', 'bitrate', 'keyframe', 'audiocodec', 'videocodec', 'descriptions', 'streams', 'audio_level_average', 'audio_active_packets'];
const SUBSCRIBER_KEYS = ['request', 'ptype', 'streams', 'private_id', 'use_msid', 'autoupdate', 'substream', 'temporal', 'spatial_layer', 'temporal_layer', 'fallback', 'audio_level_average', 'mid', 'send', 'restart', 'update', 'subscribe', 'unsubscribe', 'feed'];

function publisherMediaBody(b: Record<string, unknown>): Record<string, unknown> {
  return pick(b, PUBLISHER_KEYS);
}

function subscriberBody(b: Record<string, unknown>, ctx: RelayContext): Record<string, unknown> {
  const out = pick(b, SUBSCRIBER_KEYS);
  if (b.request === 'join') out.room = ctx.roomId;
  return out;
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in o && o[k] !== undefined) out[k] = o[k];
  return out;
}
