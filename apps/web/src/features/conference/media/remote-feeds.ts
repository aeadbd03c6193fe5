// Long on purpose: RemoteFeeds is one request queue over one subscriber handle (join, update, configure, ICE restart,
// one at a time, each answer deciding the next); split into files, the queue's state would be shared across them.
// Its rules are already pure functions beside it (model/subscription-plan.ts, with tests).
import type { JanusJS } from 'janus-gateway';
import type { CallModel } from '../model/call-model.ts';
import { IceRecovery } from '../model/ice-recovery.ts';
import {
  inboundBytesByMid,
  isEmptyUpdate,
  judgeSubscriptions,
  heldAfter,
  midsOf,
  JANUS_STREAM_DEFAULT,
  namedRefusalRest,
  planConfigure,
  planUpdate,
  RESUBSCRIBE_MS,
  refusedFeed,
  restsEndedBy,
  subscribeEntry,
  triesAfterFailure,
  videoMidsOf,
  watchdogDue,
  type JanusSubscriberStream,
  type Rest,
  type VideoWant,
} from '../model/subscription-plan.ts';
import type { LayerChoice } from '../model/video-layers.ts';
import type { MediaE2ee } from './e2ee/media-e2ee.ts';

type Handle = JanusJS.PluginHandle;

const VIDEOROOM = 'janus.plugin.videoroom';
/** A request Janus has not answered in this long is taken as lost, so the next change is not held up for ever. */
const REQUEST_TIMEOUT_MS = 10_000;
/**
 * After a failed request the next one waits this long. janus.js fails a request at once, inside `send`, while its
 * socket is down (during a resume): retried at once, it failed again in the same turn, over and over, and the page
 * froze for good (seen after a 5 s link cut, when the layer choice asked for new layers meanwhile).
 */
export const RETRY_AFTER_FAILURE_MS = 500;

export interface RemoteFeedsOptions {
  janus: JanusJS.Janus;
  /** End-to-end encryption: receivers get their decrypting transform, answers say the media is encrypted. */
  e2ee: Pick<MediaE2ee, 'protect' | 'declare'>;
  roomId: number;
  model: CallModel;
  /** The subscriber's ICE broke and is being restarted (true) or works again (false). */
  onReconnecting(on: boolean): void;
  /** ICE connected (first time or again). */
  onConnected(): void;
  /** An answer to Janus's offer has gone: the connection now comes up without this page's main thread. */
  onAnswered(): void;
  /** ICE restarts did not help; `everConnected` as in IceRecovery. The connection is rebuilt after this. */
  onGaveUp(everConnected: boolean): void;
  /** The layer a video starts at when it is asked for (what its tile needs now); none: Janus's top layer. */
  firstLayer?(streamId: string): LayerChoice | null;
}

/** RemoteFeeds' side of the layer log (VideoLayerControl.log) and of the controller's hold (layerRequestsHold). */
export interface LayerSignallingState {
  /** What this page believes Janus holds per stream id (s/t, or off). */
  holds: Record<string, string>;
  /** Layer configures sent and not answered yet, and the age of the oldest. */
  unanswered: number;
  oldestUnansweredMs: number;
  /** How long layer configures have failed with none answered since (0: not failing). */
  failingMs: number;
  lastFailure: { at: number; reason: string } | null;
  /** A request is under way, or a pause after a failure holds the next. */
  busy: boolean;
  pausedMs: number;
}

interface Asked {
  streamId: string;
  askedAt: number;
  /** The layer its video was asked for with (subscribeEntry). */
  first?: LayerChoice;
}

/**
 * Everything this browser receives, on ONE subscriber RTCPeerConnection (Janus 1.x multistream). The session tells
 * it which feeds are wanted; it asks Janus to add and drop feeds (`join` with the first ones, then `update` with
 * `subscribe`/`unsubscribe` lists, one request at a time), answers every offer Janus makes (also the ones Janus
 * makes by itself when a publisher leaves), maps each `mid` to its feed and hands the tracks to the call model.
 * When ICE breaks it asks Janus for an ICE restart (`configure` with `restart: true`) on the same connection;
 * only when restarts do not help is the connection rebuilt.
 */
export class RemoteFeeds {
  private handle: Handle | null = null;
  private attaching = false;
  private joined = false;
  private busy = false;
  private busyTimer: ReturnType<typeof setTimeout> | null = null;
  private restartWanted = false;
  /** ICE restarts handed to Janus (not failed in the sending), and whether the last one awaits Janus's offer. */
  private restartsSent = 0;
  private restartInFlight = false;
  /** No request before this time (Date.now()): a failed one is not retried at once (RETRY_AFTER_FAILURE_MS). */
  private retryAt = 0;
  private closed = false;
  private wanted = new Map<number, string>();
  private readonly asked = new Map<number, Asked>();
  /** Feeds resting after a failure, until the time given. */
  private readonly resting = new Map<number, Rest>();
  private readonly failedTries = new Map<number, number>();
  /** Feed → Janus's refusals naming it in a row (namedRefusalRest), until it is received or no longer wanted. */
  private readonly namedRefusals = new Map<number, number>();
  private mids = new Map<string, number>();
  private videoMids = new Set<string>();
  /** The layer wanted per video stream (stream id), and what Janus holds per mid after what it was told. */
  private videoWants = new Map<string, VideoWant>();
  private readonly janusHolds = new Map<string, VideoWant>();
  /** The layer Janus says it forwards now per video mid (its `substream`/`temporal` events). */
  private readonly receivedLayers = new Map<string, { substream?: number; temporal?: number }>();
  private readonly tracks = new Map<string, Map<string, MediaStreamTrack>>();
  private recovery: IceRecovery | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private watchdog: ReturnType<typeof setInterval> | null = null;
  /**
   * While Janus's offer is answered: the streams whose tracks changed, shown once the answer is sent. Showing them
   * at once re-rendered the call screen between the offer and the answer (a 150 ms task in the media bench under
   * load), and Janus cannot start the connection before it has the answer.
   */
  private answering: Set<string> | null = null;

  constructor(private readonly opts: RemoteFeedsOptions) {}

  /** The feeds to receive now (feed id → stream id); the connection follows, one request at a time. */
  sync(wanted: Map<number, string>): void {
    // A feed announced again, or refused feeds whose refusal a departure explains: asked for at once.
    for (const feed of restsEndedBy(this.resting, this.wanted, wanted)) this.resting.delete(feed);
    for (const feed of this.namedRefusals.keys()) if (!wanted.has(feed)) this.namedRefusals.delete(feed);
    this.wanted = wanted;
    this.pump();
  }

  /**
   * What to forward of each video (stream id → nothing, or a simulcast layer): asked with a subscriber `configure`
   * per `mid`, one request at a time like the rest, only for what changed.
   */
  setVideoWants(wants: Map<string, VideoWant>): void {
    this.videoWants = wants;
    this.pump();
  }

  /** The layer Janus reports forwarding per stream id (video), for the network-quality menu. */
  receivedLayer(streamId: string): { substream?: number; temporal?: number } | null {
    for (const mid of this.videoMids) {
      const feed = this.mids.get(mid);
      if (feed !== undefined && this.asked.get(feed)?.streamId === streamId) return this.receivedLayers.get(mid) ?? null;
    }
    return null;
  }

  /**
   * Says `send: true` anew for this video at the next configure (and so has Janus ask its camera for a key frame):
   * a video wanted on from which nothing arrives (ResumeWatch), whatever this page believes Janus holds.
   */
  askAgain(streamId: string): void {
    for (const mid of this.videoMids) {
      const feed = this.mids.get(mid);
      if (feed === undefined || this.asked.get(feed)?.streamId !== streamId) continue;
      const held = this.janusHolds.get(mid);
      this.janusHolds.set(mid, { ...(held ?? JANUS_STREAM_DEFAULT), send: false });
    }
  }

  /**
   * For the layer log (VideoLayerControl.log): what this page believes Janus holds per stream id (s/t, or off), the
   * layer configures not answered yet, and whether a request is under way or a pause after a failure holds the next.
   */
  signallingState(): LayerSignallingState {
    const holds: Record<string, string> = {};
    for (const [mid, h] of this.janusHolds) {
      const feed = this.mids.get(mid);
      const streamId = feed === undefined ? undefined : this.asked.get(feed)?.streamId;
      if (streamId) holds[streamId] = h.send ? `${h.substream}/${h.temporal}` : 'off';
    }
    const now = Date.now();
    // One unanswered this long is taken as lost (its socket went, or Janus dropped it), as a request under way is.
    while (this.layerConfiguresUnanswered.length && now - this.layerConfiguresUnanswered[0]! > REQUEST_TIMEOUT_MS) this.layerConfiguresUnanswered.shift();
    return {
      holds,
      unanswered: this.layerConfiguresUnanswered.length,
      oldestUnansweredMs: this.layerConfiguresUnanswered.length ? now - this.layerConfiguresUnanswered[0]! : 0,
      failingMs: this.layersFailingSince === null ? 0 : Math.max(1, now - this.layersFailingSince),
      lastFailure: this.lastLayerFailure,
      busy: this.busy,
      pausedMs: Math.max(0, this.retryAt - now),
    };
  }

  /** The subscriber connection, once it exists. */
  get pc(): RTCPeerConnection | null {
    return this.handle?.webrtcStuff?.pc ?? null;
  }

  /** One entry per received stream, all on the same connection, with the `mid`s that carry it (stats, tests). */
  streams(): { streamId: string; pc: RTCPeerConnection; mids: string[] }[] {
    const pc = this.pc;
    if (!pc) return [];
    const byStream = new Map<string, string[]>();
    for (const [mid, feed] of this.mids) {
      const a = this.asked.get(feed);
      if (a) byStream.set(a.streamId, [...(byStream.get(a.streamId) ?? []), mid]);
    }
    return [...byStream].map(([streamId, mids]) => ({ streamId, pc, mids }));
  }

  close(): void {
    this.closed = true;
    this.reset();
  }

  /** This connection's ICE recovery (null: no connection yet); the media session restarts it where a resume asks. */
  get iceRecovery(): IceRecovery | null {
    return this.recovery;
  }

  /**
   * The ICE restarts asked of Janus so far, and whether one is pending (waiting to be sent, or sent and its offer not
   * come): a resume compares them with the give-up's. A restart that could not be sent is not counted.
   */
  get restartRequests(): { asked: number; pending: boolean } {
    return { asked: this.restartsSent, pending: this.restartWanted || this.restartInFlight };
  }

  /**
   * The signalling socket was replaced: a request that went out on the dead one may never be answered. (Whether ICE
   * restarts too is the media session's call, heldThroughResume.)
   */
  resumed(): void {
    this.retryAt = 0;
    // Configures sent on the old socket may never be answered.
    this.layerConfiguresUnanswered = [];
    this.setBusy(false);
  }

  /** The browser has a new address: restart ICE once more on the same connection, so it gathers on it. */
  networkChanged(): void {
    this.recovery?.restartNow();
  }

  /** Drops the connection and every stream; `sync` builds a new one. */
  private reset(): void {
    this.recovery?.stop();
    this.recovery = null;
    if (this.busyTimer) clearTimeout(this.busyTimer);
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const handle = this.handle;
    this.handle = null;
    this.attaching = this.joined = this.busy = this.restartWanted = this.restartInFlight = this.connectedOnce = false;
    this.layerConfiguresUnanswered = [];
    this.layersFailingSince = null;
    this.answering = null;
    this.retryAt = 0;
    for (const a of this.asked.values()) this.opts.model.remoteMedia(a.streamId, null);
    this.asked.clear();
    this.mids.clear();
    this.videoMids.clear();
    this.janusHolds.clear();
    this.receivedLayers.clear();
    this.tracks.clear();
    if (handle) {
      try {
        handle.hangup(false);
        handle.detach();
      } catch {
        /* already gone */
      }
    }
  }

  private later(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, ms);
    this.timers.add(t);
  }

  private restingNow(): Set<number> {
    const now = Date.now();
    for (const [feed, r] of this.resting) if (r.until <= now) this.resting.delete(feed);
    return new Set(this.resting.keys());
  }

  private rest(feeds: number[], kind: 'refused' | 'stalled', ms = RESUBSCRIBE_MS): void {
    for (const feed of feeds) {
      this.resting.set(feed, { until: Date.now() + ms, refused: kind === 'refused' });
      this.failedTries.set(feed, triesAfterFailure(this.failedTries.get(feed) ?? 0, kind));
    }
    this.later(() => this.pump(), ms + 10);
  }

  /** Rests the feed Janus named in a refusal, longer at each refusal of it in a row (namedRefusalRest). */
  private restNamed(feed: number): void {
    const refusals = this.namedRefusals.get(feed) ?? 0;
    this.namedRefusals.set(feed, refusals + 1);
    this.rest([feed], 'refused', namedRefusalRest(refusals));
  }

  private setBusy(on: boolean): void {
    if (!on) this.showAnswered();
    this.busy = on;
    if (this.busyTimer) clearTimeout(this.busyTimer);
    this.busyTimer = on ? setTimeout(() => this.setBusy(false), REQUEST_TIMEOUT_MS) : null;
    if (!on) queueMicrotask(() => this.pump());
  }

  /** Sends the next request if none is under way: an ICE restart first, else the wanted-feeds difference. */
  private pump(): void {
    if (this.closed || this.busy || this.attaching || Date.now() < this.retryAt) return;
    if (this.joined && this.restartWanted) {
      this.restartWanted = false;
      this.lastRequest = [];
      this.setBusy(true);
      this.restartsSent += 1;
      this.restartInFlight = true;
      this.handle?.send({
        message: { request: 'configure', restart: true },
        error: () => {
          this.restartsSent -= 1;
          this.restartInFlight = false;
          this.restartWanted = true; // still wanted: asked again after the pause
          this.failed();
        },
      });
      return;
    }
    const plan = planUpdate(this.asked.keys(), this.wanted, this.restingNow());
    if (isEmptyUpdate(plan)) return this.configureLayers();
    for (const feed of plan.unsubscribe) this.drop(feed);
    const now = Date.now();
    for (const feed of plan.subscribe) this.asked.set(feed, { streamId: this.wanted.get(feed)!, askedAt: now });
    if (!this.handle) {
      if (plan.subscribe.length) this.attach(plan.subscribe);
      return;
    }
    if (!this.joined) return;
    this.setBusy(true);
    const message: { request: string; [key: string]: unknown } = { request: 'update' };
    if (plan.subscribe.length) message.subscribe = plan.subscribe.map((feed) => this.subscribeEntry(feed));
    if (plan.unsubscribe.length) message.unsubscribe = plan.unsubscribe.map((feed) => ({ feed }));
    this.lastRequest = plan.subscribe;
    // A refusal by the relay (a feed that has just gone) comes back as an error of the request, not as an event.
    this.handle.send({ message, error: () => this.failed() });
  }

  /** Asks Janus for the wanted layer of every video mid whose wish changed (nothing when none did). */
  private configureLayers(): void {
    if (!this.joined || !this.handle) return;
    // Not before the connection has first come up. Janus asks each camera for a key frame when this viewer's
    // connection comes up, and again at every layer change; a camera makes at most one per 300 ms. A change made
    // earlier (the first look comes a second after the socket; in the media bench 2.3 s before the connection was up)
    // had the cameras make key frames this viewer could not receive yet, and could use up the one its connection then
    // asked for. Later, while it is down (a congested link can read "disconnected"), the wishes go on: a step down
    // is what such a link needs.
    const pc = this.pc;
    if (pc?.connectionState === 'connected') this.connectedOnce = true;
    if (pc && !this.connectedOnce) return;
    const byMid = new Map<string, VideoWant>();
    for (const mid of this.videoMids) {
      const feed = this.mids.get(mid);
      const streamId = feed === undefined ? undefined : this.asked.get(feed)?.streamId;
      const want = streamId === undefined ? undefined : this.videoWants.get(streamId);
      if (want) byMid.set(mid, want);
    }
    const streams = planConfigure(byMid, this.janusHolds, this.videoMids);
    if (!streams.length) {
      // Janus holds every wish: nothing is failing, whatever failed before.
      this.layersFailingSince = null;
      return;
    }
    // What Janus holds until this is applied: a failure puts it back (each field is said only when it changes).
    const before = new Map(streams.map((s) => [s.mid, this.janusHolds.get(s.mid)]));
    const after = new Map(streams.map((s) => [s.mid, heldAfter(before.get(s.mid), byMid.get(s.mid)!)]));
    for (const [mid, held] of after) this.janusHolds.set(mid, held);
    this.lastRequest = []; // nothing is under way (pump sends this only then): a refusal rests no feed
    // Not waited for: on a congested downlink the answer can take seconds (its TCP segments are lost with the rest),
    // while the request itself, on the uplink, reaches Janus at once. Layer wishes must go out as they change.
    const sentAt = Date.now();
    this.layerConfiguresUnanswered.push(sentAt);
    this.handle.send({
      message: { request: 'configure', streams },
      error: (reason: unknown) => {
        // Failed in the sending (the socket down, a refusal by the relay): it will get no answer.
        const i = this.layerConfiguresUnanswered.indexOf(sentAt);
        if (i >= 0) this.layerConfiguresUnanswered.splice(i, 1);
        this.layerRequestFailed(String(reason));
        // Not applied: Janus holds what it held, and the wish is asked again after the pause.
        for (const [mid, was] of before) {
          if (this.janusHolds.get(mid) !== after.get(mid)) continue; // a later configure has said more since
          if (was) this.janusHolds.set(mid, was);
          else this.janusHolds.delete(mid);
        }
        this.pauseAfterFailure();
      },
    });
  }

  /** This connection has been connected (DTLS too) at least once: layer wishes may go from then on. */
  private connectedOnce = false;

  /**
   * When each layer `configure` sent and not yet answered went, oldest first: their `configured: ok` is not the answer
   * to a request under way (Janus answers a handle's requests in order).
   */
  private layerConfiguresUnanswered: number[] = [];
  /** Since when layer configures have failed with none answered since (null: the last one went through). */
  private layersFailingSince: number | null = null;
  /** The last failure of a layer configure, for the layer log: when, and what janus.js, the relay or Janus said. */
  private lastLayerFailure: { at: number; reason: string } | null = null;

  private layerRequestFailed(reason: string): void {
    const now = Date.now();
    this.layersFailingSince ??= now;
    this.lastLayerFailure = { at: now, reason };
  }

  /** The feeds the request under way adds (rested if Janus refuses it). */
  private lastRequest: number[] = [];

  private drop(feed: number): void {
    const a = this.asked.get(feed);
    this.asked.delete(feed);
    if (a) {
      this.tracks.delete(a.streamId);
      this.opts.model.remoteMedia(a.streamId, null);
    }
  }

  private attach(first: number[]): void {
    this.attaching = true;
    let mine: Handle | null = null;
    this.opts.janus.attach({
      plugin: VIDEOROOM,
      success: (handle) => {
        this.attaching = false;
        if (this.closed || this.handle) return handle.detach();
        this.handle = mine = handle;
        this.lastRequest = first;
        this.setBusy(true);
        const streams = first.map((feed) => this.subscribeEntry(feed));
        handle.send({ message: { request: 'join', ptype: 'subscriber', room: this.opts.roomId, streams }, error: () => this.failed() });
      },
      error: () => {
        this.attaching = false;
        for (const f of first) this.asked.delete(f);
        this.rest(first, 'refused');
      },
      onmessage: (msg, jsep) => {
        if (this.handle !== mine || !mine) return;
        this.onMessage(mine, msg, jsep);
      },
      iceState: (state) => {
        if (this.handle === mine) this.recovery?.update(state);
      },
      // Every received track arrives here (one transceiver per mid), while Janus's offer is applied and before the
      // answer is made: the only moment a receiver's transform takes effect (see MediaE2ee).
      onremotetrack: (track, mid, on) => {
        this.opts.e2ee.protect(mine?.webrtcStuff?.pc);
        if (this.handle !== mine) return;
        this.onTrack(track, mid, on);
      },
      // Janus hung the connection up (ICE or DTLS gave out for good): build a new one for the wanted feeds.
      oncleanup: () => {
        if (this.handle !== mine || this.closed) return;
        // Janus gave up on a connection that never connected (often before our own restarts have run out).
        if (this.recovery && !this.recovery.connectedOnce) this.opts.onGaveUp(false);
        this.reset();
        this.later(() => this.pump(), RESUBSCRIBE_MS);
      },
    });
  }

  private onMessage(handle: Handle, msg: JanusJS.Message, jsep?: JanusJS.JSEP): void {
    const event = msg.videoroom as string | undefined;
    if (msg.error && !this.busy && this.layerConfiguresUnanswered.length) {
      // No other request is under way: Janus refused a layer configure. What Janus holds is no longer known for
      // sure, so every wish is said in full at the next one.
      this.layerConfiguresUnanswered.shift();
      this.layerRequestFailed(`${String(msg.error_code ?? '')} ${String(msg.error)}`.trim());
      this.janusHolds.clear();
      return this.pauseAfterFailure();
    }
    if (msg.error) return this.failed(refusedFeed(msg, this.lastRequest));
    // Janus's word on the layer it forwards now (after a switch on a key frame), per mid.
    if (event === 'event' && typeof msg.mid === 'string' && (typeof msg.substream === 'number' || typeof msg.temporal === 'number')) {
      const cur = this.receivedLayers.get(msg.mid) ?? {};
      if (typeof msg.substream === 'number') cur.substream = msg.substream;
      if (typeof msg.temporal === 'number') cur.temporal = msg.temporal;
      this.receivedLayers.set(msg.mid, cur);
    }
    // `configured: ok` with no new offer answers a layer `configure`, or else the request under way: the next may go.
    if (event === 'event' && msg.configured === 'ok' && !jsep) {
      if (this.layerConfiguresUnanswered.length) {
        this.layerConfiguresUnanswered.shift();
        this.layersFailingSince = null;
      } else this.setBusy(false);
    }
    if (event === 'attached' || event === 'updated') {
      this.joined = true;
      this.applyStreams(msg.streams as JanusSubscriberStream[] | undefined);
      if (!jsep) this.setBusy(false);
    }
    if (jsep) {
      this.restartInFlight = false;
      this.answering ??= new Set();
      handle.createAnswer({
        jsep,
        // Data only: audio and video m-lines are accepted receive-only as Janus offers them.
        tracks: [{ type: 'data', capture: false }],
        success: (answer) => {
          handle.send({ message: { request: 'start' }, jsep: this.opts.e2ee.declare(answer) });
          this.opts.onAnswered();
          this.ensureRecovery();
          this.setBusy(false);
        },
        error: () => {
          this.opts.model.addError('SUBSCRIBE_FAILED');
          this.setBusy(false);
        },
      });
    }
  }

  /**
   * The request under way was refused (by the relay or Janus): its new feeds rest, then are asked for again. When
   * Janus named the one feed it refused (`named`, see refusedFeed), only that one rests, briefly, and the others are
   * asked for again at once.
   */
  private failed(named: number | null = null): void {
    if (this.closed) return;
    const restRefused = (feeds: number[]) => (named === null ? this.rest(feeds, 'refused') : this.restNamed(named));
    if (!this.joined) {
      // The join itself failed (typically: a feed is no longer published): start over, later for what rests.
      const first = this.lastRequest;
      this.reset();
      restRefused(first);
      if (named !== null) this.pump();
      return;
    }
    for (const f of this.lastRequest) this.drop(f);
    restRefused(this.lastRequest);
    this.lastRequest = [];
    if (named === null) this.pauseAfterFailure();
    else this.setBusy(false);
  }

  /** The request under way failed: the next one goes out after RETRY_AFTER_FAILURE_MS (or when the socket is back). */
  private pauseAfterFailure(): void {
    this.retryAt = Date.now() + RETRY_AFTER_FAILURE_MS;
    this.later(() => this.pump(), RETRY_AFTER_FAILURE_MS + 10);
    this.setBusy(false);
  }

  /** The feed's subscribe entry, starting its video at the layer its tile needs now (taken as the first Janus holds). */
  private subscribeEntry(feed: number): ReturnType<typeof subscribeEntry> {
    const asked = this.asked.get(feed);
    const first = asked ? this.opts.firstLayer?.(asked.streamId) : null;
    if (asked) asked.first = first ?? undefined;
    return subscribeEntry(feed, first ?? undefined);
  }

  /** Janus's full list of the subscription's streams: which mid carries which feed now. */
  private applyStreams(streams: JanusSubscriberStream[] | undefined): void {
    if (!streams) return;
    const before = this.mids;
    this.mids = midsOf(streams);
    this.videoMids = videoMidsOf(streams);
    for (const feed of this.mids.values()) this.namedRefusals.delete(feed);
    // A mid that went, or that Janus reuses for another feed, starts from Janus's defaults again, or from the layer
    // its feed was asked for with.
    for (const mid of [...this.janusHolds.keys()]) {
      if (!this.videoMids.has(mid) || before.get(mid) !== this.mids.get(mid)) {
        this.janusHolds.delete(mid);
        this.receivedLayers.delete(mid);
      }
    }
    for (const mid of this.videoMids) {
      const feed = this.mids.get(mid);
      const first = feed === undefined ? undefined : this.asked.get(feed)?.first;
      if (first && before.get(mid) !== feed) this.janusHolds.set(mid, heldAfter(undefined, { send: true, ...first }));
    }
    for (const [streamId, byMid] of this.tracks) {
      for (const mid of [...byMid.keys()]) if (!this.mids.has(mid)) byMid.delete(mid);
      this.publish(streamId);
    }
  }

  private onTrack(track: MediaStreamTrack, mid: string, on: boolean): void {
    const feed = this.mids.get(mid);
    const a = feed === undefined ? undefined : this.asked.get(feed);
    if (!a) return;
    const byMid = this.tracks.get(a.streamId) ?? new Map<string, MediaStreamTrack>();
    this.tracks.set(a.streamId, byMid);
    if (on && track.readyState !== 'ended') byMid.set(mid, track);
    else byMid.delete(mid);
    this.publish(a.streamId);
  }

  private publish(streamId: string): void {
    if (this.answering) return void this.answering.add(streamId);
    const byMid = this.tracks.get(streamId);
    this.opts.model.remoteMedia(streamId, byMid?.size ? new MediaStream([...byMid.values()]) : null);
  }

  /** The answer went out (or failed, or timed out): the streams held back meanwhile are shown. */
  private showAnswered(): void {
    const held = this.answering;
    this.answering = null;
    for (const streamId of held ?? []) if (this.tracks.has(streamId)) this.publish(streamId);
  }

  private ensureRecovery(): void {
    if (this.recovery || !this.pc) return;
    this.recovery = new IceRecovery({
      restart: () => {
        this.restartWanted = true;
        this.pump();
      },
      reconnecting: (on) => this.opts.onReconnecting(on),
      connected: () => {
        // Up again by itself (the old path came back): a restart not sent yet is no longer needed; sent later, on the
        // resumed socket, it would renegotiate a connection that works.
        this.restartWanted = false;
        this.opts.onConnected();
      },
      currentState: () => this.pc?.iceConnectionState ?? 'closed',
      giveUp: (everConnected) => {
        this.opts.onReconnecting(false);
        this.opts.onGaveUp(everConnected);
        if (this.closed) return;
        this.reset();
        this.later(() => this.pump(), RESUBSCRIBE_MS);
      },
    });
    this.recovery.update(this.pc.iceConnectionState);
    this.watchdog ??= setInterval(() => void this.checkStalled(), 5_000);
  }

  /** Feeds asked for long ago that have received nothing are dropped and asked for again after a rest. */
  private async checkStalled(): Promise<void> {
    const pc = this.pc;
    if (!pc || this.busy || pc.iceConnectionState !== 'connected') return;
    const now = Date.now();
    const due = watchdogDue(this.asked, this.failedTries, now);
    if (!due.length) return;
    // Judged as they were asked for when found due (the stats read below yields to other work).
    const askedThen = new Map(this.asked);
    const reports: { type: string; mid?: string; bytesReceived?: number }[] = [];
    (await pc.getStats()).forEach((r: { type: string; mid?: string; bytesReceived?: number }) => reports.push(r));
    const { stalled, flowing } = judgeSubscriptions(due, askedThen, this.mids, inboundBytesByMid(reports), this.failedTries, now);
    for (const feed of flowing) this.failedTries.delete(feed);
    if (stalled.length) this.rest(stalled, 'stalled');
    this.pump();
  }
}
