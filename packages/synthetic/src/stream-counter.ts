/**
 * What a synthetic viewer counts of one received stream, without decoding: packets, bytes and sequence gaps; for
 * video the frames per simulcast layer (told by the width of the last key frame, read from the clear VP8 header that
 * end-to-end encryption leaves: Janus switches layers only at key frames) and per temporal layer (from the payload
 * descriptor), and freezes. Pure: the caller passes each packet and the time it arrived.
 */
import { readDescriptor, readFrameHeader } from './vp8.ts';
import { seqDelta, type ParsedRtp } from './rtp.ts';

/** A freeze as WebRTC's stats define one: a gap between frames over max(3 × the mean gap, the mean + 150 ms). */
export function isFreeze(gapMs: number, meanGapMs: number): boolean {
  return gapMs > Math.max(3 * meanGapMs, meanGapMs + 150);
}

export interface StreamCounts {
  packets: number;
  bytes: number;
  /** Packets never seen: forward jumps of the sequence number beyond one. */
  lost: number;
  frames: number;
  keyFrames: number;
  /** Frames per layer name (from `layerOfWidth`), e.g. { h: 120, l: 30 }; '?' before the first key frame. */
  framesPerLayer: Record<string, number>;
  /** Frames per temporal layer id. */
  framesPerTemporal: Record<number, number>;
  freezes: number;
  freezeMs: number;
  /** Width and height of the last key frame. */
  width: number;
  height: number;
}

export class StreamCounter {
  readonly counts: StreamCounts = { packets: 0, bytes: 0, lost: 0, frames: 0, keyFrames: 0, framesPerLayer: {}, framesPerTemporal: {}, freezes: 0, freezeMs: 0, width: 0, height: 0 };
  private lastSeq = -1;
  private layer = '?';
  private lastFrameAt = -1;
  private readonly gaps: number[] = [];

  constructor(
    readonly kind: 'audio' | 'video',
    /** The layer a key frame of this width belongs to (the publishers' clip sizes); the width itself if unknown. */
    private readonly layerOfWidth: (width: number) => string = (w) => String(w),
  ) {}

  packet(rtp: ParsedRtp, atMs: number, size: number): void {
    const c = this.counts;
    c.packets += 1;
    c.bytes += size;
    if (this.lastSeq >= 0) {
      const d = seqDelta(this.lastSeq, rtp.sequence);
      if (d <= 0) return; // late or repeated: counted once already, or as lost
      c.lost += d - 1;
    }
    this.lastSeq = rtp.sequence;
    if (this.kind === 'video') this.videoPayload(rtp.payload, atMs);
  }

  private videoPayload(payload: Uint8Array, atMs: number): void {
    const d = readDescriptor(payload);
    if (!d?.start) return;
    const header = readFrameHeader(payload.subarray(d.length));
    if (!header) return;
    const c = this.counts;
    if (header.key) {
      c.keyFrames += 1;
      c.width = header.width!;
      c.height = header.height!;
      this.layer = this.layerOfWidth(header.width!);
    }
    c.frames += 1;
    c.framesPerLayer[this.layer] = (c.framesPerLayer[this.layer] ?? 0) + 1;
    c.framesPerTemporal[d.tid] = (c.framesPerTemporal[d.tid] ?? 0) + 1;
    if (this.lastFrameAt >= 0) {
      const gap = atMs - this.lastFrameAt;
      if (this.gaps.length >= 5) {
        const mean = this.gaps.reduce((a, b) => a + b, 0) / this.gaps.length;
        if (isFreeze(gap, mean)) {
          c.freezes += 1;
          c.freezeMs += gap;
        }
      }
      this.gaps.push(gap);
      if (this.gaps.length > 30) this.gaps.shift();
    }
    this.lastFrameAt = atMs;
  }
}
