import type { CallModel } from '../model/call-model.ts';
import {
  inboundDelta,
  LossWatch,
  outboundLoss,
  STATS_INTERVAL_MS,
  type InboundCounters,
  type KindStats,
  type OutboundCounters,
  type StreamStats,
} from '../model/network-quality.ts';

export interface PolledConnection {
  role: 'publisher' | 'subscriber';
  streamId: string;
  pc: RTCPeerConnection;
  /** A subscriber connection carries many streams: the `mid`s that are this one's (all, when absent). */
  mids?: string[];
}

export type Report = Record<string, unknown> & { type: string; kind?: string; id: string };

/**
 * Polls RTCPeerConnection.getStats every second (spec §7): the subscribers' frame rate, bitrate and loss for the
 * signal bars, the own publisher's loss for PUBLISHER_LOSS_RATIO_EXCEEDED. The rules are in model/network-quality.
 */
export class StatsPoller {
  private timer: ReturnType<typeof setInterval> | null = null;
  private inbound = new Map<string, InboundCounters>();
  private outbound = new Map<string, OutboundCounters>();
  private readonly watch = new LossWatch();
  private busy = false;
  /** Handed the subscriber connection's whole report after each poll (the layer choice reads its downlink). */
  onSubscriberReports: ((reports: Report[]) => void) | null = null;

  constructor(
    private readonly model: CallModel,
    private readonly connections: () => PolledConnection[],
    private readonly now: () => number = () => Date.now(),
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.poll(), STATS_INTERVAL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    if (this.busy) return; // a loaded machine: never stack polls
    this.busy = true;
    try {
      const stats: Record<string, StreamStats> = {};
      const nextInbound = new Map<string, InboundCounters>();
      const nextOutbound = new Map<string, OutboundCounters>();
      let publisherLoss: { audio: number; video: number } | null = null;
      // One getStats per connection, however many streams share it.
      const byPc = new Map<RTCPeerConnection, Report[]>();
      for (const { role, streamId, pc, mids } of this.connections()) {
        if (pc.connectionState === 'closed') continue;
        let all = byPc.get(pc);
        if (!all) {
          const collected: Report[] = [];
          (await pc.getStats()).forEach((r: Report) => collected.push(r));
          byPc.set(pc, (all = collected));
        }
        const reports = mids ? all.filter((r) => r.type !== 'inbound-rtp' || mids.includes(String(r.mid))) : all;
        if (role === 'subscriber') {
          const s: StreamStats = { audio: null, video: null };
          for (const r of reports) {
            if (r.type !== 'inbound-rtp' || (r.kind !== 'audio' && r.kind !== 'video')) continue;
            const key = `${streamId}/${r.id}`;
            const cur: InboundCounters = {
              kind: r.kind,
              timestamp: Number(r.timestamp ?? 0),
              bytesReceived: Number(r.bytesReceived ?? 0),
              packetsReceived: Number(r.packetsReceived ?? 0),
              packetsLost: Number(r.packetsLost ?? 0),
              framesDecoded: Number(r.framesDecoded ?? 0),
            };
            nextInbound.set(key, cur);
            s[r.kind] = inboundDelta(this.inbound.get(key), cur) satisfies KindStats;
          }
          stats[streamId] = s;
        } else if (streamId === 'own-camera') {
          const loss = { audio: 0, video: 0 };
          const remote = new Map(reports.filter((r) => r.type === 'remote-inbound-rtp').map((r) => [String(r.localId ?? ''), r]));
          for (const r of reports) {
            if (r.type !== 'outbound-rtp' || (r.kind !== 'audio' && r.kind !== 'video')) continue;
            const rr = remote.get(r.id) ?? reports.find((x) => x.type === 'remote-inbound-rtp' && x.ssrc === r.ssrc);
            const cur: OutboundCounters = {
              kind: r.kind,
              packetsSent: Number(r.packetsSent ?? 0),
              packetsLost: rr && typeof rr.packetsLost === 'number' ? rr.packetsLost : null,
              fractionLost: rr && typeof rr.fractionLost === 'number' ? rr.fractionLost : null,
            };
            nextOutbound.set(r.id, cur);
            loss[r.kind] = Math.max(loss[r.kind], outboundLoss(this.outbound.get(r.id), cur));
          }
          publisherLoss = loss;
          stats['own-camera'] = {
            audio: { frameRate: null, bitrate: 0, packetsLost: 0, lossRatio: loss.audio },
            video: { frameRate: null, bitrate: 0, packetsLost: 0, lossRatio: loss.video },
          };
        }
      }
      this.inbound = nextInbound;
      this.outbound = nextOutbound;
      const subscriber = this.connections().find((c) => c.role === 'subscriber');
      const reports = subscriber && byPc.get(subscriber.pc);
      if (reports) this.onSubscriberReports?.(reports);
      this.model.setStats(stats);
      if (publisherLoss && this.watch.sample(publisherLoss.audio, publisherLoss.video, this.now())) {
        this.model.addError('PUBLISHER_LOSS_RATIO_EXCEEDED');
      }
    } catch {
      /* a PeerConnection went away mid-poll; the next second tries again */
    } finally {
      this.busy = false;
    }
  }
}
