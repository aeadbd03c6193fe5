import type { CallState } from './call-model.ts';
import { cameraStreamId, screenStreamId } from './call-model.ts';

/**
 * The rules of the one subscriber connection that receives every remote feed (Janus multistream): which feeds are
 * wanted, what to ask Janus to add and drop so that the connection carries exactly those, when a subscription that
 * carried nothing is asked for again, and how long to wait before reconnecting the signalling socket. Pure: the
 * media session applies the answers.
 */

/** Feed id → the stream id the call model shows it as (camera-… or screen-…), for every other connection's feeds. */
export function wantedFeeds(state: Pick<CallState, 'connections' | 'connectionId'>): Map<number, string> {
  const wanted = new Map<number, string>();
  for (const c of state.connections) {
    if (c.connectionId === state.connectionId) continue;
    if (c.feedId) wanted.set(c.feedId, cameraStreamId(c.connectionId));
    if (c.screenFeedId) wanted.set(c.screenFeedId, screenStreamId(c.connectionId));
  }
  return wanted;
}

export interface SubscriptionUpdate {
  subscribe: number[];
  unsubscribe: number[];
}

/**
 * What one Janus `update` must change: feeds wanted and not yet asked for are added, feeds asked for and no longer
 * wanted (or resting after a failure) are dropped. A feed that is resting is neither kept nor asked for again until
 * its rest is over. Sorted, so the same situation always makes the same request.
 */
export function planUpdate(asked: Iterable<number>, wanted: Map<number, string>, resting: ReadonlySet<number> = new Set()): SubscriptionUpdate {
  const have = new Set(asked);
  const subscribe = [...wanted.keys()].filter((f) => !have.has(f) && !resting.has(f)).sort((a, b) => a - b);
  const unsubscribe = [...have].filter((f) => !wanted.has(f) || resting.has(f)).sort((a, b) => a - b);
  return { subscribe, unsubscribe };
}

export const isEmptyUpdate = (u: SubscriptionUpdate): boolean => u.subscribe.length === 0 && u.unsubscribe.length === 0;

/**
 * A subscription that has received nothing this long after it was asked for is dropped and asked for again. Seen on
 * a loaded machine: one of 72 subscriptions never carried a packet, a black tile for the rest of the call. Each new
 * try of the same feed waits twice as long (up to 8×): on a slow device setting up can itself take that long, and
 * cutting it short every time would never let it finish.
 */
export const SUBSCRIPTION_WATCHDOG_MS = 20_000;
/** How long a dropped or refused feed rests before it is asked for again (if still wanted then). */
export const RESUBSCRIBE_MS = 1_500;

/** A feed resting after a failure: until when, and whether the relay or Janus refused it (else: it carried nothing). */
export interface Rest {
  until: number;
  refused: boolean;
}

/**
 * Resting feeds whose rest ends now, as the server's list of feeds changes from `before` to `after`:
 * - a feed the server announces (again) as published: wanted now and not before. A refusal or a dropped
 *   subscription was about the feed as the relay knew it then; asked again now it cannot meet the same refusal.
 * - every refused feed still wanted, once some feed has left: a request is refused whole when one of its feeds has
 *   just gone (the relay and Janus both refuse a feed that is no longer published), so the departure explains the
 *   refusal and the others need not wait. Each departure ends the rests once, so a refusal with another cause costs
 *   at most one more try per departure, never a loop.
 */
export function restsEndedBy(resting: ReadonlyMap<number, Rest>, before: ReadonlyMap<number, string>, after: ReadonlyMap<number, string>): number[] {
  const departed = [...before.keys()].some((f) => !after.has(f));
  return [...resting]
    .filter(([f, r]) => after.has(f) && (!before.has(f) || (departed && r.refused)))
    .map(([f]) => f)
    .sort((a, b) => a - b);
}

/** Janus's error code for a subscription to a feed that is not published, or whose publisher's connection is not up yet. */
const JANUS_NO_SUCH_FEED = 428;

/**
 * The feed Janus names when it refuses a subscriber `join` or `update` ("No such feed (123)"). Janus refuses the
 * whole request for the first feed in it that has gone or whose publisher's connection is not up yet (a person
 * still joining), so only that feed need rest: the others are asked for again at once. Resting them all held a
 * joiner's every video back 5 s in the media bench (three refusals in a row). Null when the refusal names no feed of
 * the request (the relay's own refusals, other errors): then the whole request rests.
 */
export function refusedFeed(error: { error_code?: unknown; error?: unknown }, requested: readonly number[]): number | null {
  if (error.error_code !== JANUS_NO_SUCH_FEED || typeof error.error !== 'string') return null;
  const named = /No such feed \((\d+)\)/.exec(error.error);
  const feed = named ? Number(named[1]) : Number.NaN;
  return requested.includes(feed) ? feed : null;
}

/** The first rest of a feed Janus named in a refusal; each refusal of it in a row doubles it, up to RESUBSCRIBE_MS. */
export const NAMED_REFUSAL_REST_MS = 250;

/**
 * How long a feed Janus named in a refusal rests, after `refusals` refusals of it in a row before this one. Mostly its
 * publisher is still connecting: Janus serves a feed only once its publisher's connection is up, a few hundred ms
 * after the server announced it, and every viewer asks at once. A feed that has gone leaves the server's list soon.
 */
export function namedRefusalRest(refusals: number): number {
  return Math.min(RESUBSCRIBE_MS, NAMED_REFUSAL_REST_MS * 2 ** refusals);
}

/**
 * The failed tries a feed counts after a failure. A refusal of the request (by the relay or Janus: the feed was not,
 * or no longer, published when asked) says nothing about how long setting up takes on this device, so unlike a
 * subscription that carried nothing it does not lengthen the feed's watchdog.
 */
export function triesAfterFailure(tries: number, kind: 'refused' | 'stalled'): number {
  return kind === 'stalled' ? tries + 1 : tries;
}

export function watchdogDelay(failedTries: number): number {
  return SUBSCRIPTION_WATCHDOG_MS * 2 ** Math.min(Math.max(failedTries, 0), 3);
}

/** Whether a subscription asked for at `askedAt` that has received `bytes` by `now` counts as stalled. */
export function subscriptionStalled(askedAt: number, now: number, bytes: number, failedTries: number): boolean {
  return bytes === 0 && now - askedAt >= watchdogDelay(failedTries);
}

/** Feeds whose watchdog is due now: asked for at least watchdogDelay(tries) ago. Only these need the stats read. */
export function watchdogDue(asked: ReadonlyMap<number, { askedAt: number }>, failedTries: ReadonlyMap<number, number>, now: number): number[] {
  return [...asked].filter(([feed, a]) => now - a.askedAt >= watchdogDelay(failedTries.get(feed) ?? 0)).map(([feed]) => feed);
}

/** Bytes received per `mid`, summed over the connection's inbound RTP stats. */
export function inboundBytesByMid(reports: Iterable<{ type: string; mid?: string; bytesReceived?: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of reports) if (r.type === 'inbound-rtp' && r.mid !== undefined) out.set(r.mid, (out.get(r.mid) ?? 0) + (r.bytesReceived ?? 0));
  return out;
}

/**
 * The watchdog's verdict on the due feeds: `stalled` (nothing received: drop and ask again after a rest) and
 * `flowing` (media arrives: their failed tries are forgotten, so a later stall waits the shortest time again).
 */
export function judgeSubscriptions(
  due: readonly number[],
  asked: ReadonlyMap<number, { askedAt: number }>,
  mids: ReadonlyMap<string, number>,
  bytesByMid: ReadonlyMap<string, number>,
  failedTries: ReadonlyMap<number, number>,
  now: number,
): { stalled: number[]; flowing: number[] } {
  const stalled: number[] = [];
  const flowing: number[] = [];
  for (const feed of due) {
    const a = asked.get(feed);
    if (!a) continue;
    let bytes = 0;
    for (const [mid, f] of mids) if (f === feed) bytes += bytesByMid.get(mid) ?? 0;
    if (subscriptionStalled(a.askedAt, now, bytes, failedTries.get(feed) ?? 0)) stalled.push(feed);
    else if (bytes > 0) flowing.push(feed);
  }
  return { stalled, flowing };
}

/** The signalling socket's reconnect back-off: 0.5 s, doubling, at most 8 s. `attempt` counts from 1. */
export function reconnectDelay(attempt: number): number {
  return Math.min(500 * 2 ** Math.min(Math.max(attempt, 1) - 1, 4), 8_000);
}

/** Janus's description of one stream of a subscription (`attached` / `updated` events). */
export interface JanusSubscriberStream {
  mid?: unknown;
  feed_id?: unknown;
  active?: unknown;
  type?: unknown;
}

/**
 * mid → feed id of the subscription's live streams, from the full list Janus sends with each `attached` and
 * `updated` event. Inactive m-lines (dropped feeds whose slot Janus may reuse later) map to nothing.
 */
export function midsOf(streams: readonly JanusSubscriberStream[] | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of streams ?? []) {
    if (s.active === false || typeof s.mid !== 'string' || typeof s.feed_id !== 'number') continue;
    out.set(s.mid, s.feed_id);
  }
  return out;
}

/** The `mid`s of the subscription's live video streams (the ones a layer can be chosen for). */
export function videoMidsOf(streams: readonly JanusSubscriberStream[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const s of streams ?? []) if (s.active !== false && s.type === 'video' && typeof s.mid === 'string') out.add(s.mid);
  return out;
}

/** What this viewer asks Janus to forward of one video `mid`: nothing, or a simulcast layer (absent: as Janus sends it). */
export interface VideoWant {
  send: boolean;
  substream?: number;
  temporal?: number;
}

export interface MidConfigure {
  mid: string;
  send?: boolean;
  substream?: number;
  temporal?: number;
}

/** What Janus holds for a subscriber's video stream it was never told about: sending, top substream, top temporal layer. */
export const JANUS_STREAM_DEFAULT: Readonly<Required<VideoWant>> = { send: true, substream: 2, temporal: 2 };

/** What Janus holds for a stream after a configure of `want` (a layer left unsaid stays as it was). */
export function heldAfter(was: VideoWant | undefined, want: VideoWant): VideoWant {
  const held = was ?? JANUS_STREAM_DEFAULT;
  return { send: want.send, substream: want.substream ?? held.substream, temporal: want.temporal ?? held.temporal };
}

/**
 * One feed's entry in a subscribe request (`join` streams, `update` subscribe), starting its video at `first` where
 * that differs from Janus's default. Said here it costs nothing: Janus sets it as the layer to forward before it
 * forwards anything, from the key frame it asks for anyway; a `configure` after that (as a joiner's first wish was)
 * asks every camera for one more key frame and holds the picture until it comes.
 */
export function subscribeEntry(feed: number, first?: { substream?: number; temporal?: number }): { feed: number; substream?: number; temporal?: number } {
  const entry: { feed: number; substream?: number; temporal?: number } = { feed };
  if (first?.substream !== undefined && first.substream !== JANUS_STREAM_DEFAULT.substream) entry.substream = first.substream;
  if (first?.temporal !== undefined && first.temporal !== JANUS_STREAM_DEFAULT.temporal) entry.temporal = first.temporal;
  return entry;
}

/**
 * The `streams` of one subscriber `configure` that brings Janus from what it holds (`held`; a mid never configured
 * holds JANUS_STREAM_DEFAULT) to what is wanted now, for the video mids that exist: only the mids that change, each
 * with only the fields that change, sorted, so that nothing is sent when nothing changed.
 * Each field said costs the camera a key frame when it differs from what Janus forwards: `send: true` always (Janus
 * 1.1.2, "Restoring video for subscriber", even for a stream it already sends), a substream or temporal layer
 * whenever it is not the one forwarded (a new stream forwards none yet, so even the 2 it targets already counts). A
 * joiner's first wish {substream 0, temporal 2} that repeated the temporal layer cost every camera two key frames
 * instead of one; a layer step that repeated `send: true` cost every viewer of that camera one more.
 */
export function planConfigure(wanted: ReadonlyMap<string, VideoWant>, held: ReadonlyMap<string, VideoWant>, videoMids: ReadonlySet<string>): MidConfigure[] {
  const out: MidConfigure[] = [];
  for (const mid of [...videoMids].sort()) {
    const want = wanted.get(mid);
    if (!want) continue;
    const was = held.get(mid) ?? JANUS_STREAM_DEFAULT;
    const entry: MidConfigure = { mid };
    if (was.send !== want.send) entry.send = want.send;
    if (want.send && want.substream !== undefined && want.substream !== was.substream) entry.substream = want.substream;
    if (want.send && want.temporal !== undefined && want.temporal !== was.temporal) entry.temporal = want.temporal;
    if (Object.keys(entry).length > 1) out.push(entry);
  }
  return out;
}
