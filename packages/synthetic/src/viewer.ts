/**
 * A synthetic viewer: it receives like the web app (remote-feeds.ts), on ONE subscriber connection for every feed it
 * wants, asking Janus for the simulcast layer it wants, and counts what arrives (stream-counter.ts) without
 * decrypting or decoding anything.
 */
import nodeDataChannel from 'node-datachannel';
import type { JanusSide } from './participant.ts';
import { withTimeout } from './participant.ts';
import { RemoteCandidates } from './remote-candidates.ts';
import { isRtcp, readRtp } from './rtp.ts';
import { StreamCounter, type StreamCounts } from './stream-counter.ts';
import type { Clips } from './clips.ts';

const { PeerConnection } = nodeDataChannel;
type PeerConnection = InstanceType<typeof PeerConnection>;
type Track = ReturnType<PeerConnection['addTrack']>;

export interface WantedFeed {
  feed: number;
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
        if (rtp) stream.counter.packet(rtp, performance.now() - this.started, msg.length);
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
