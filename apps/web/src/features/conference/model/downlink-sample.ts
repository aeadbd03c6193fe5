/**
 * The subscriber connection's getStats read into one second's sample for the downlink controller
 * (downlink-controller.ts): loss of video and of audio, what arrived, and the browser's estimate.
 */

/** One second of the subscriber connection's stats, summed over every received stream. */
export interface DownlinkSample {
  /** Lost / (lost + received) of video packets in the last interval. */
  videoLoss: number;
  audioLoss: number;
  /** candidate-pair availableIncomingBitrate when the browser gives one (Chromium does not), in bit/s. */
  availableIncomingBitrate?: number | null;
  /** Bit/s received in the last interval, all streams. */
  receivedBitrate: number;
  /** How much the queue on the link grew lately, in ms (queue-delay.ts); null or absent: not known. */
  queueGrowthMs?: number | null;
}

/** Cumulative counters of the subscriber connection's streams (by inbound-rtp id), from one getStats. */
export interface DownlinkTotals {
  /** ms (the reports' timestamp). */
  at: number;
  streams: Map<string, { kind: 'audio' | 'video'; mid: string; lost: number; received: number }>;
  bytes: number;
  availableIncomingBitrate: number | null;
}

type StatsEntry = { type: string; kind?: unknown; [key: string]: unknown };

/** Reads each received stream's counters and the selected pair's estimate from the connection's report. */
export function downlinkTotals(reports: readonly StatsEntry[]): DownlinkTotals {
  const t: DownlinkTotals = { at: 0, streams: new Map(), bytes: 0, availableIncomingBitrate: null };
  for (const r of reports) {
    if (r.type === 'inbound-rtp' && (r.kind === 'audio' || r.kind === 'video')) {
      t.streams.set(String(r.id ?? r.mid ?? t.streams.size), { kind: r.kind, mid: String(r.mid ?? ''), lost: Math.max(0, Number(r.packetsLost ?? 0)), received: Number(r.packetsReceived ?? 0) });
      t.bytes += Number(r.bytesReceived ?? 0);
      t.at = Math.max(t.at, Number(r.timestamp ?? 0));
    } else if (r.type === 'candidate-pair' && r.nominated === true && typeof r.availableIncomingBitrate === 'number') {
      t.availableIncomingBitrate = r.availableIncomingBitrate;
    }
  }
  return t;
}

/** A stream needs this many packets in the interval for its loss ratio to count (a paused video sends none). */
export const MIN_PACKETS_FOR_LOSS = 10;

/**
 * One second's sample from two snapshots. The loss of a kind is the MEDIAN over the streams that carried enough
 * packets: this page's own downlink (a full queue on its link) hits every stream alike, while a sender's poor
 * uplink shows as loss on that sender's streams alone, at every viewer, and lowering this viewer's layers would
 * not help it (seen in the browser test: one publisher's 14 % audio loss took every video off both viewers).
 *
 * `before`, the sample of the second before: when nothing at all arrived in it, the link was down (cut, or moving
 * from Wi-Fi to 4G), and every packet Janus sent meanwhile is counted lost at once, in this second, when the first
 * one after the gap arrives (45-54 packets a camera after a 5 s cut in the media bench, some 80 % of the second).
 * That is the outage's, already over, not a full queue's: this sample reads no loss, so that video comes back at
 * the layers it had instead of stepping down (in the bench the joiner took one camera's temporal layer down after
 * a cut and had that camera fully back only 8 s after the restore).
 *
 * `settling`: the mids of videos turned on or moved to another layer in the last two looks (Janus changes layer at
 * the next key frame). What such a video loses in those seconds is left out: a full link shows on the voices and on
 * the videos that did not move. In the browser test (1 December) the step that gave back three cameras and the
 * focused stream's middle layer, five seconds after a shaping was lifted, read 10.5 % video loss at 985 kbit/s on a
 * free link, was taken back as a failed probe, and the focused stream reached its top layer 28 s after the lift.
 */
export function downlinkSample(prev: DownlinkTotals | null, cur: DownlinkTotals, before: DownlinkSample | null = null, settling: ReadonlySet<string> = new Set()): DownlinkSample | null {
  if (!prev || cur.at <= prev.at) return null;
  const afterOutage = before !== null && before.receivedBitrate === 0;
  const ratios: Record<'audio' | 'video', number[]> = { audio: [], video: [] };
  for (const [id, c] of cur.streams) {
    const p = prev.streams.get(id);
    if (!p || (c.kind === 'video' && settling.has(c.mid))) continue;
    // Counters of a stream that went and came back start again from zero: nothing to read this time.
    const lost = Math.max(0, c.lost - p.lost);
    const received = Math.max(0, c.received - p.received);
    if (lost + received >= MIN_PACKETS_FOR_LOSS) ratios[c.kind].push(afterOutage ? 0 : lost / (lost + received));
  }
  const median = (xs: number[]) => {
    if (!xs.length) return 0;
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const seconds = (cur.at - prev.at) / 1000;
  return {
    videoLoss: median(ratios.video),
    audioLoss: median(ratios.audio),
    receivedBitrate: Math.max(0, ((cur.bytes - prev.bytes) * 8) / seconds),
    availableIncomingBitrate: cur.availableIncomingBitrate,
  };
}
