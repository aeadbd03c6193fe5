/**
 * Network quality of conference spec §2 (signal bar), §7 (stats each 1 s) and §9 (loss thresholds), free of
 * React and of the media library: the media layer feeds it `RTCStatsReport` entries, the model keeps the figures.
 */
export const STATS_INTERVAL_MS = 1_000;
export const LOSS_DANGER = 0.05;
export const LOSS_WARNING = 0.025;
export const LOSS_SAMPLES = 5;
export const LOSS_SILENCE_MS = 300_000;

export type SignalLevel = 'danger' | 'warning' | 'fine';

/** The signal icon: danger above 0.05, warning above 0.025, otherwise fine. */
export function signalLevel(lossRatio: number): SignalLevel {
  if (lossRatio > LOSS_DANGER) return 'danger';
  if (lossRatio > LOSS_WARNING) return 'warning';
  return 'fine';
}

export interface KindStats {
  /** Frames per second (video only; null for audio). */
  frameRate: number | null;
  /** Bits per second. */
  bitrate: number;
  /** Packets lost during the last interval. */
  packetsLost: number;
  /** Lost / (lost + received) during the last interval. */
  lossRatio: number;
}

export interface StreamStats {
  video: KindStats | null;
  audio: KindStats | null;
}

/** A cumulative counter snapshot of one RTP stream, as getStats() reports it. */
export interface InboundCounters {
  kind: 'audio' | 'video';
  timestamp: number;
  bytesReceived: number;
  packetsReceived: number;
  packetsLost: number;
  framesDecoded: number;
}

export interface OutboundCounters {
  kind: 'audio' | 'video';
  packetsSent: number;
  /** From the receiver's report (remote-inbound-rtp); may be missing until the first RTCP arrives. */
  packetsLost: number | null;
  fractionLost: number | null;
}

const ratio = (lost: number, total: number) => (total > 0 ? Math.min(1, Math.max(0, lost / total)) : 0);

/** Per-second figures of one incoming stream from two snapshots of its counters. */
export function inboundDelta(prev: InboundCounters | undefined, cur: InboundCounters): KindStats {
  if (!prev || cur.timestamp <= prev.timestamp) {
    return { frameRate: cur.kind === 'video' ? 0 : null, bitrate: 0, packetsLost: 0, lossRatio: 0 };
  }
  const seconds = (cur.timestamp - prev.timestamp) / 1000;
  const lost = Math.max(0, cur.packetsLost - prev.packetsLost);
  const received = Math.max(0, cur.packetsReceived - prev.packetsReceived);
  return {
    frameRate: cur.kind === 'video' ? Math.round(Math.max(0, cur.framesDecoded - prev.framesDecoded) / seconds) : null,
    bitrate: Math.round((Math.max(0, cur.bytesReceived - prev.bytesReceived) * 8) / seconds),
    packetsLost: lost,
    lossRatio: ratio(lost, lost + received),
  };
}

/** The own publisher's loss ratio of one kind over the last interval (receiver reports), else the reported fraction. */
export function outboundLoss(prev: OutboundCounters | undefined, cur: OutboundCounters): number {
  if (prev && cur.packetsLost !== null && prev.packetsLost !== null && cur.packetsSent > prev.packetsSent) {
    return ratio(Math.max(0, cur.packetsLost - prev.packetsLost), cur.packetsSent - prev.packetsSent);
  }
  return cur.fractionLost ?? 0;
}

/**
 * PUBLISHER_LOSS_RATIO_EXCEEDED (spec §9): the larger of audio and video loss at or above 0.05 on 5 consecutive
 * samples raises it once; after that it stays silent for 5 minutes, whatever the samples say.
 */
export class LossWatch {
  private consecutive = 0;
  private lastRaised: number | null = null;

  /** Feeds one sample; true when the warning is to be shown now. */
  sample(audioLoss: number, videoLoss: number, now: number): boolean {
    const worst = Math.max(audioLoss, videoLoss);
    this.consecutive = worst >= LOSS_DANGER ? this.consecutive + 1 : 0;
    if (this.consecutive < LOSS_SAMPLES) return false;
    if (this.lastRaised !== null && now - this.lastRaised < LOSS_SILENCE_MS) return false;
    this.lastRaised = now;
    this.consecutive = 0;
    return true;
  }
}
