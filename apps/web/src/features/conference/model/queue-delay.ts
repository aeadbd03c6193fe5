/**
 * How much a queue on this viewer's downlink has grown lately, from the voices' frames as they arrive (the
 * decryption worker sees every one): each frame's arrival time against its RTP timestamp gives its one-way delay up
 * to a constant (the two clocks' offset). A FIFO on the link (a `tc tbf`, a mobile cell's buffer) fills before it
 * drops: a layer step up that is too much shows here as 100-300 ms more delay a second or two before it shows as
 * loss, and loss on a FIFO costs the voices as much as the videos.
 *
 * Only growth against the last few seconds is read, never the delay itself: a sender's audio clock runs a little
 * fast or slow against this machine's (a headless Firefox's fake microphone drifted steadily), so against an
 * all-time minimum its delay grows for ever and reads as a queue that is not there. Over WINDOW_MS a 0.5 % skew is
 * 25 ms, far below QUEUE_GROWTH_CONGESTED_MS.
 */

/**
 * Growth above this in a second is a queue filling. A 0.5 % clock skew adds 25 ms over WINDOW_MS; a step up of
 * 85 kbit/s on a full 500 kbit/s link fills a queue some 170 ms a second (the second of the step reads about half).
 */
export const QUEUE_GROWTH_CONGESTED_MS = 60;
/**
 * Growth above this in two looks running is a queue that does not drain: a link just full, on which the next burst (a
 * key frame, two voices at once) overflows it (browser test, 2 December: 58 and 40 ms three and four seconds after a
 * step up, then 286 ms and 46 % of the videos' packets lost).
 */
export const QUEUE_STANDING_MS = 30;
/**
 * Growth this high at a step back is a queue close to full: drained only by what the link has spare under the cut
 * stepped back to, which on a link ~90 % used takes seconds with every burst in them overflowing it (browser test, 2
 * December: probes called back at 220-290 ms on a 300 ms queue, the full queue drained for 3-4 s, a voice lost 3-11 %;
 * one called back at 123 ms read 397-430 ms the three seconds after). The figure is the second's median: its end
 * stands higher.
 */
export const QUEUE_NEAR_FULL_MS = 100;
/** The baseline is each voice's least delay over this long. */
export const WINDOW_MS = 5_000;
/** A voice needs this many frames in the interval for its growth to count (DTX sends one per 400 ms while silent). */
export const MIN_FRAMES = 2;
/** Opus's RTP clock. */
const AUDIO_CLOCK_HZ = 48_000;

/** One frame's delay relative to its stream's clock (ms, arbitrary offset) and when it arrived. */
interface Point {
  at: number;
  delay: number;
}

interface Voice {
  points: Point[];
  /** The RTP timestamp unwrapped to a monotonic count of ticks. */
  lastRtp: number;
  unwrapped: number;
  /** Index into points of the first frame of the interval not yet summed. */
  fresh: number;
}

/** Voices' frames in, one growth figure per interval out; fed on a controlled clock (arrival times in ms). */
export class QueueDelay {
  private readonly voices = new Map<number, Voice>();

  /** One voice frame: its stream (SSRC), RTP timestamp (32-bit, Opus clock) and arrival time (ms). */
  frame(ssrc: number, rtpTimestamp: number, arrivedAt: number): void {
    let v = this.voices.get(ssrc);
    if (!v) {
      v = { points: [], lastRtp: rtpTimestamp, unwrapped: rtpTimestamp, fresh: 0 };
      this.voices.set(ssrc, v);
    } else {
      // Signed 32-bit difference: wraps and the odd reordered frame move the count the right way.
      const step = ((rtpTimestamp - v.lastRtp) | 0);
      v.unwrapped += step;
      v.lastRtp = rtpTimestamp;
    }
    v.points.push({ at: arrivedAt, delay: arrivedAt - (v.unwrapped * 1000) / AUDIO_CLOCK_HZ });
    // Bounded even when nobody asks for `growth` (no look at the stats: no subscriber connection yet).
    while (v.points[0]!.at < arrivedAt - 2 * WINDOW_MS) {
      v.points.shift();
      v.fresh = Math.max(0, v.fresh - 1);
    }
  }

  /**
   * The median over voices of how far the delay of this interval's frames (their median) stands above the voice's
   * least delay over the last WINDOW_MS; null when no voice sent enough frames. Starts the next interval.
   */
  growth(now: number): number | null {
    const perVoice: number[] = [];
    for (const [ssrc, v] of this.voices) {
      let drop = 0;
      while (drop < v.points.length && v.points[drop]!.at < now - WINDOW_MS) drop += 1;
      v.points.splice(0, drop);
      v.fresh = Math.max(0, v.fresh - drop);
      if (!v.points.length) {
        this.voices.delete(ssrc);
        continue;
      }
      const recent = v.points.slice(v.fresh).map((p) => p.delay);
      v.fresh = v.points.length;
      if (recent.length < MIN_FRAMES) continue;
      const least = Math.min(...v.points.map((p) => p.delay));
      perVoice.push(median(recent) - least);
    }
    return perVoice.length ? median(perVoice) : null;
  }
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
