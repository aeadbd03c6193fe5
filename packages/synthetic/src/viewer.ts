/**
 * A synthetic viewer: it receives like the web app (remote-feeds.ts), on ONE subscriber connection for every feed it
 * wants, asking Janus for the simulcast layer it wants, and counts what arrives (stream-counter.ts) without
 * decrypting or decoding anything.
 */
import nodeDataChannel from 'node-datachannel';
import type { JanusSide } from './participant.ts';
import type { MediaConnection } from '@videomote/contract/media';
import type { MediaSocket } from './media-socket.ts';
import { SyntheticParticipant, withTimeout } from './participant.ts';
import { RemoteCandidates } from './remote-candidates.ts';
import { isRtcp, readRtp } from './rtp.ts';
import { StreamCounter, type StreamCounts } from './stream-counter.ts';
import type { Clips } from './clips.ts';

const { PeerConnection } = nodeDataChannel;
type PeerConnection = InstanceType<typeof PeerConnection>;
type Track = ReturnType<PeerConnection['addTrack']>;

/**
 * A silence of the video longer than this is a gap (an outage and its recovery): half a second is four frames of the
 * slowest stream a viewer asks for (the lowest layer's base temporal layer, 7.5 frames/s).
 */
export const GAP_MS = 500;

export interface WantedFeed {
  feed: number;
  /** One stream of the feed (the publisher's mid, e.g. its video alone); all of its streams when absent. */
  mid?: string;
  /** Simulcast layer 0 (l) – 2 (h) and temporal layer 0–2; Janus's defaults (the top) when absent. */
  substream?: number;
  temporal?: number;
}

/** The layer name of a key frame's width, from the publishers' clips (h, m, l). */
export function layerNamer(clips: Clips): (width: number) => string {
  const byWidth = new Map(Object.entries(clips.video).map(([rid, clip]) => [clip.width, rid]));
  return (w) => byWidth.get(w) ?? String(w);
}

export interface ReceivedStream {
  mid: string;
  feed: number;
  kind: 'audio' | 'video';
  counter: StreamCounter;
}

export class SyntheticViewer {
  private pc: PeerConnection | null = null;
  private handle = 0;
  private readonly tracks: Track[] = [];
  readonly streams = new Map<string, ReceivedStream>();
  private readonly started = performance.now();
  /** Video RTP packets over every subscription of this viewer, and when (performance.now()) the last one came. */
  videoPackets = 0;
  lastVideoAt = 0;
  /** Silences of the received video longer than GAP_MS (performance.now() at their ends), over every subscription. */
  readonly gaps: { from: number; to: number }[] = [];

  private constructor(
    private readonly who: JanusSide,
    private readonly layerOf: (width: number) => string,
  ) {}

  /** Joins as a subscriber of `feeds` and answers Janus's offer; resolves once the connection is up. */
  static async subscribe(who: JanusSide, feeds: WantedFeed[], clips: Clips): Promise<SyntheticViewer> {
    const viewer = new SyntheticViewer(who, layerNamer(clips));
    await viewer.start(feeds);
    return viewer;
  }

  /**
   * Subscribes afresh on the participant's current socket (after keepConnected's fresh start, or to other feeds):
   * the old connection is closed, the per-stream counts start again; videoPackets and lastVideoAt go on.
   */
  async resubscribe(feeds: WantedFeed[]): Promise<void> {
    // The old subscription is let go in Janus too, as the web app detaches a handle it leaves: kept, it goes on
    // asking the publisher for key frames and holding a port until its session ends.
    if (this.handle && !this.who.socket.closed) this.who.socket.detach(this.handle);
    this.close();
    this.streams.clear();
    this.tracks.length = 0;
    await this.start(feeds);
  }

  private async start(feeds: WantedFeed[]): Promise<void> {
    const socket = this.who.socket;
    const candidates = new RemoteCandidates();
    this.handle = await socket.attach((m) => candidates.heard(m));
    const joined = await socket.message(this.handle, { request: 'join', ptype: 'subscriber', room: socket.roomId, streams: feeds.map((f) => ({ ...f })) });
    if (!joined.jsep) throw new Error('Janus sent no offer');
    for (const s of (joined.data.streams as { mid: string; feed_id?: number; type: string }[] | undefined) ?? []) {
      if (s.type !== 'audio' && s.type !== 'video') continue;
      this.streams.set(s.mid, { mid: s.mid, feed: s.feed_id ?? 0, kind: s.type, counter: new StreamCounter(s.type, this.layerOf) });
    }
    const pc = new PeerConnection(`synthetic-viewer-${this.handle}`, { iceServers: [] });
    this.pc = pc;
    pc.onTrack((track) => {
      this.tracks.push(track);
      const stream = this.streams.get(track.mid());
      track.onMessage((msg) => {
        if (!stream || isRtcp(msg)) return;
        const rtp = readRtp(msg);
        if (!rtp) return;
        const now = performance.now();
        stream.counter.packet(rtp, now - this.started, msg.length);
        if (stream.kind === 'video') {
          if (this.lastVideoAt && now - this.lastVideoAt > GAP_MS) this.gaps.push({ from: this.lastVideoAt, to: now });
          this.videoPackets += 1;
          this.lastVideoAt = now;
        }
      });
    });
    const gathered = new Promise<void>((resolve) => pc.onGatheringStateChange((s) => s === 'complete' && resolve()));
    const connected = new Promise<void>((resolve, reject) =>
      pc.onStateChange((s) => {
        if (s === 'connected') resolve();
        if (s === 'failed') reject(new Error('viewer connection failed'));
      }),
    );
    pc.setRemoteDescription(joined.jsep.sdp, 'offer');
    candidates.ready(pc);
    await gathered;
    const answer = pc.localDescription()!;
    await socket.message(this.handle, { request: 'start' }, { type: 'answer', sdp: answer.sdp, ...(this.who.e2ee ? { e2ee: true } : {}) });
    await withTimeout(connected, 20_000, 'the viewer connection did not come up');
  }

  /**
   * Keeps this viewer on the camera of the connection `pick` accepts, as the web app's remote feeds do: when that
   * connection publishes under a new feed (its sender started afresh, e.g. after its app node died) the viewer
   * subscribes to it, and after its own lost `/media` socket it starts afresh (keepConnected) and finds the camera
   * again. A stale announcement (a dead node's connection, until it ages out) is tried and passed over.
   */
  followCamera(pick: (c: MediaConnection) => boolean, wanted: (feed: number) => WantedFeed[], current: number): void {
    this.following = current;
    const listen = (socket: MediaSocket) =>
      socket.onOwn((m) => {
        if ((m.videomote !== 'connectionCreated' && m.videomote !== 'connectionUpdated') || !pick(m.connection)) return;
        const feed = m.connection.feedId;
        // Every update of the sender's connection (its state, its feed) is announced; only a new feed is followed,
        // once: a feed already followed or queued is not asked for again.
        if (feed === null || feed === this.following || feed === this.queued) return;
        this.queued = feed;
        this.switching = this.switching.then(() => (socket.closed || this.following === feed ? undefined : this.subscribeToCamera(pick, wanted, feed).catch(() => undefined)));
      });
    listen(this.who.socket);
    // Only a participant of the product's path starts afresh after a lost socket (the bare baseline does not).
    if (!(this.who instanceof SyntheticParticipant)) throw new Error('followCamera: only a SyntheticParticipant reconnects');
    this.who.keepConnected(async (p) => {
      // Listening before subscribing: a camera announced while this viewer subscribes (its sender back on another
      // node) is followed, not missed. Both go through `switching`, one subscription at a time.
      listen(p.socket);
      this.following = null;
      this.queued = null;
      const subscribed = this.switching.then(() => this.subscribeToCamera(pick, wanted));
      this.switching = subscribed.catch(() => undefined);
      await subscribed;
    });
  }

  /** The camera feed followed now (followCamera), for a test's failure message. */
  following: number | null = null;
  /** The newest feed an announcement queued a subscription to. */
  private queued: number | null = null;
  /** Subscriptions to the followed camera that failed (Janus refused the feed, mostly), for a test's failure message. */
  refusals = 0;
  private switching: Promise<void> = Promise.resolve();

  /**
   * Subscribes to `first` or else to an announced camera of `pick`, until Janus takes one. Janus refuses a feed until
   * its publisher's connection is up ("No such feed"), and the server announces the feed as soon as Janus answered the
   * publisher's offer, a few hundred ms before that: a refused feed is asked for again after a rest while it is still
   * announced (250 ms doubling to 1.5 s, as the web app's namedRefusalRest), never given up. Given up after one
   * refusal, a visitor would wait for an announcement that had already come. A stale announcement (a dead node's
   * connection, until it ages out) is asked for in each round too, and refused each time.
   */
  private async subscribeToCamera(pick: (c: MediaConnection) => boolean, wanted: (feed: number) => WantedFeed[], first?: number): Promise<void> {
    const socket = this.who.socket;
    // Newest announcement first: after a node died the sender's old connection may still be listed (until it ages
    // out) and its feed still in Janus for a moment; the connection it made afresh is the one that lives on.
    const announced = () => [...socket.connections.values()].reverse().filter((c) => pick(c) && c.feedId !== null).map((c) => c.feedId!);
    for (let round = 0; ; round++) {
      const feeds = first !== undefined && round === 0 ? [first] : announced();
      if (!feeds.length) {
        // None announced yet: wait for one, and on the wait's time-out look again rather than give up (giving up left
        // viewers without video for good after their presenter's node died, in cluster-load).
        await socket.cameraFeed((c) => pick(c) && c.feedId !== null).catch(() => undefined);
        if (socket.closed) throw new Error('media socket closed');
        continue;
      }
      for (const feed of feeds) {
        try {
          await this.resubscribe(wanted(feed));
          this.following = feed;
          return;
        } catch (err) {
          this.refusals += 1;
          if (socket.closed) throw err;
        }
      }
      await new Promise((r) => setTimeout(r, Math.min(1_500, 250 * 2 ** round)));
    }
  }

  /** Asks Janus for another layer of a received video (the web app's layer `configure`). */
  async setLayer(mid: string, substream: number, temporal = 2): Promise<void> {
    await this.who.socket.message(this.handle, { request: 'configure', streams: [{ mid, substream, temporal }] });
  }

  /** Counts per received stream, by mid. */
  counts(): Record<string, StreamCounts & { feed: number; kind: string }> {
    return Object.fromEntries([...this.streams].map(([mid, s]) => [mid, { feed: s.feed, kind: s.kind, ...s.counter.counts }]));
  }

  close(): void {
    try {
      this.pc?.close();
    } catch {
      /* already closed */
    }
    this.pc = null;
  }
}
