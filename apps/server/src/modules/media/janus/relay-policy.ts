import { SCREEN_HANDLE_TAG, type Capabilities } from '@videomote/contract/media';

/**
 * The check every Janus API message from a browser passes before the server relays it (ARCHITECTURE.md:
 * "secrets stay on the server"). Pure: it reads the connection's context and state and answers with the message
 * to send upstream (display and token are the server's, never the browser's) or a refusal with a reason.
 */
export interface RelayContext {
  /** The meeting's own VideoRoom: the only room this connection may address. */
  roomId: number;
  capabilities: Capabilities;
  /** The server-made Janus `display` (ConnectionData JSON). */
  display: string;
  /** Whether a feed is published in this meeting's room now, by the server's own list (absent: not checked). */
  roomFeed?(feedId: number): boolean;
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
}

/** What the relay must remember about the request, to learn ids and feeds from Janus's answer. */
export type Expectation =
  | { kind: 'create' }
  | { kind: 'attach'; sessionId: number; videoType?: 'screen' }
  | { kind: 'publisher-join'; handleId: number }
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

  const sessionOk = () => isId(msg.session_id) && state.sessions.has(msg.session_id);
  const handle = () => (isId(msg.handle_id) ? state.handles.get(msg.handle_id) : undefined);
  const handleOk = () => sessionOk() && handle()?.sessionId === msg.session_id;

  switch (msg.janus) {
    case 'create':
      if (state.sessions.size >= MAX_SESSIONS) return refuse('too many sessions');
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
      if (count >= MAX_HANDLES_PER_SESSION) return refuse('too many handles');
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
      return checkPluginMessage(msg, ctx, handle()!, msg.handle_id as number);
    default:
      return refuse(`"${String(msg.janus)}" is not allowed`);
  }
}

function checkPluginMessage(msg: Record<string, unknown>, ctx: RelayContext, handle: HandleState, handleId: number): PolicyResult {
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
      const feeds = checkAddedFeeds(b.streams, ctx);
      if (feeds) return refuse(feeds);
      handle.role = 'subscriber';
      return out(subscriberBody(b, ctx), { kind: 'none' });
    }
    if (ptype !== 'publisher') return refuse('unknown ptype');
    if (!ctx.capabilities.publish) return refuse('no publish capability');
    if ('id' in b) return refuse('the server chooses publisher ids');
    if (request === 'join' && jsep) return refuse('offer belongs to configure');
    if (jsep && (jsep as { type?: unknown }).type !== 'offer') return refuse('bad jsep');
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
      const newBody: Record<string, unknown> = { ...publisherMediaBody(b), request };
      if ('display' in b) newBody.display = ctx.display;
      return out(newBody, jsep ? { kind: 'publish', handleId } : { kind: 'none' });
    }
    if (handle.role === 'subscriber') {
      if (request === 'publish' || request === 'unpublish') return refuse('a subscriber does not publish');
      if (jsep) return refuse('a subscriber sends no offer');
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

/**
 * The feeds a subscriber asks to add: a list of stream entries, each naming one feed by its numeric id, published
 * in this meeting's room. Janus looks feeds up in the room the handle joined, and we check the same against our
 * own list, so that no browser can add a feed of another meeting. Answers the refusal reason, or null.
 */
function checkAddedFeeds(streams: unknown, ctx: RelayContext): string | null {
  if (!Array.isArray(streams) || streams.length === 0) return 'streams must list feeds';
  if (streams.length > MAX_STREAMS_PER_REQUEST) return 'too many streams';
  for (const s of streams) {
    if (s === null || typeof s !== 'object' || Array.isArray(s)) return 'bad stream entry';
    const feed = (s as Record<string, unknown>).feed;
    if (!isId(feed)) return 'a stream names its feed by id';
    if ('room' in s) return 'another room';
    if (ctx.roomFeed && !ctx.roomFeed(feed)) return 'not a feed of this room';
  }
  return null;
}

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
