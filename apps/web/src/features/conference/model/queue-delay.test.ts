import { describe, expect, it } from 'vitest';
import { QueueDelay, QUEUE_GROWTH_CONGESTED_MS, WINDOW_MS } from './queue-delay.ts';

/**
 * Voices sending a 20 ms frame each, their RTP clocks `skew` fast (0.005: half a per cent), the link adding
 * `queue(t)` ms and `jitter` ms of noise. Answers the growth read each second from `from` to `until`.
 */
function run(opts: { voices?: number; skew?: number; queue?: (t: number) => number; jitter?: number; until: number; from?: number; rtpStart?: number }): (number | null)[] {
  const q = new QueueDelay();
  const voices = opts.voices ?? 3;
  const out: (number | null)[] = [];
  let noise = 1;
  const rand = () => ((noise = (noise * 16807) % 2147483647) / 2147483647) * (opts.jitter ?? 0);
  for (let t = 0; t <= opts.until; t += 20) {
    for (let v = 0; v < voices; v++) {
      const rtp = ((opts.rtpStart ?? 1_000 * v) + Math.round(t * 48 * (1 + (opts.skew ?? 0)))) >>> 0;
      q.frame(100 + v, rtp, t + 30 + (opts.queue?.(t) ?? 0) + rand());
    }
    if (t > 0 && t % 1_000 === 0) {
      const g = q.growth(t + 30);
      if (t >= (opts.from ?? 0)) out.push(g);
    }
  }
  return out;
}

describe('the growth of a queue on the downlink, from the voices’ frames', () => {
  it('reads nothing on a free link, jitter and all', () => {
    for (const g of run({ until: 30_000, jitter: 15 })) expect(g!).toBeLessThan(15);
  });

  it('does not read a sender’s clock running 0.5 % fast or slow as a queue, however long it runs', () => {
    for (const skew of [0.005, -0.005]) {
      const read = run({ until: 300_000, skew, jitter: 5, from: 10_000 });
      expect(Math.max(...read.map((g) => g!)), `skew ${skew}`).toBeLessThan(40);
    }
  });

  it('reads a queue filling within a second or two (a step up too much for the link), before it drops anything', () => {
    // From 20 s the queue grows 150 ms a second, as 85 kbit/s more on a full 500 kbit/s link does.
    const read = run({ until: 23_000, queue: (t) => (t < 20_000 ? 0 : (t - 20_000) * 0.15), jitter: 5, from: 19_000 });
    expect(read[0]!).toBeLessThan(15);
    // The second the step was taken reads half of what the queue grew in it (the median of its frames); the next all.
    expect(read[2]!).toBeGreaterThan(QUEUE_GROWTH_CONGESTED_MS);
    expect(read[3]!).toBeGreaterThan(150);
  });

  it('reads the voices together: one voice whose own path lags is not this link’s queue', () => {
    const q = new QueueDelay();
    const reads: number[] = [];
    for (let t = 0; t <= 12_000; t += 20) {
      for (let v = 0; v < 3; v++) q.frame(v, t * 48, t + (v === 0 && t > 8_000 ? 200 : 0));
      if (t > 0 && t % 1_000 === 0) reads.push(q.growth(t)!);
    }
    expect(Math.max(...reads)).toBe(0);
  });

  it('says nothing while every voice is silent (DTX: a frame in 400 ms), and forgets voices gone for WINDOW_MS', () => {
    const q = new QueueDelay();
    q.frame(1, 0, 500);
    expect(q.growth(1_000)).toBeNull();
    expect(q.growth(1_000 + WINDOW_MS + 1)).toBeNull();
  });

  it('keeps no more than two windows of frames while nobody asks', () => {
    const q = new QueueDelay();
    for (let t = 0; t <= 60_000; t += 20) q.frame(1, t * 48, t + 30);
    expect(q.growth(60_030)).toBe(0);
    expect((q as unknown as { voices: Map<number, { points: unknown[] }> }).voices.get(1)!.points.length).toBeLessThanOrEqual(WINDOW_MS / 20 + 1);
  });

  it('follows the RTP timestamp across its 32-bit wrap', () => {
    for (const g of run({ until: 10_000, rtpStart: 2 ** 32 - 48 * 3_000, voices: 1 })) expect(g!).toBeLessThan(1);
  });
});
