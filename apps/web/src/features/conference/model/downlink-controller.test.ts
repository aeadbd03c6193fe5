import { describe, expect, it } from 'vitest';
import { DownlinkController, layerRequestsHold, PROBE_HELD_MS, STABLE_MS, UNANSWERED_HOLD_MS } from './downlink-controller.ts';
import type { DownlinkSample } from './downlink-sample.ts';
import { QUEUE_GROWTH_CONGESTED_MS, QUEUE_NEAR_FULL_MS, QUEUE_STANDING_MS } from './queue-delay.ts';
import { allocate, speakerRanks, type VideoDemand } from './video-layers.ts';

// The controller's older rules are tested in video-layers.test.ts; these are the queue, the hold and heavy loss.
const lossy: DownlinkSample = { videoLoss: 0.2, audioLoss: 0.05, receivedBitrate: 500_000 };
const clean: DownlinkSample = { videoLoss: 0, audioLoss: 0, receivedBitrate: 450_000, queueGrowthMs: 5 };
/** A queue filling, still far from full (under QUEUE_NEAR_FULL_MS). */
const queued: DownlinkSample = { ...clean, queueGrowthMs: (QUEUE_GROWTH_CONGESTED_MS + QUEUE_NEAR_FULL_MS) / 2 };
const nearFull: DownlinkSample = { ...clean, queueGrowthMs: QUEUE_NEAR_FULL_MS + 120 };

/** A controller stepped down on a 500 kbit/s link, then clean until its first probe; answers it and the probe's time. */
function probing(): { c: DownlinkController; down: number; t: number } {
  const c = new DownlinkController();
  for (let t = 0; t <= 6_000; t += 1_000) c.sample(lossy, t, 30);
  const down = c.cut;
  let t = 7_000;
  for (; c.cut === down; t += 1_000) c.sample(clean, t, 30);
  return { c, down, t };
}

describe('a queue growing on the link', () => {
  it('takes a step up back as soon as the queue grows after it, before any packet is lost; the next probe after the stable period', () => {
    const { c, down, t } = probing();
    expect(c.cut).toBe(down - 1);
    const stable = c.stablePeriodMs;
    expect(c.sample(queued, t, 30)).toBe(down);
    expect(c.stablePeriodMs).toBe(stable);
    // The loss the full queue may still bring in the next two looks is that step's, not more congestion.
    expect(c.sample(lossy, t + 1_000, 30)).toBe(down);
    expect(c.sample(lossy, t + 2_000, 30)).toBe(down);
    // Loss that goes on is.
    expect(c.sample(lossy, t + 3_000, 30)).toBeGreaterThan(down);
  });

  it('does not let that loss restart the stable period (a link lifted then is found by the next probe)', () => {
    const { c, down, t } = probing();
    c.sample(queued, t, 30);
    const stable = c.stablePeriodMs;
    c.sample(lossy, t + 1_000, 30);
    c.sample(lossy, t + 2_000, 30);
    for (let u = t + 3_000; u < t + stable; u += 1_000) expect(c.sample(clean, u, 30)).toBe(down);
    expect(c.sample(clean, t + stable, 30)).toBe(down - 1);
  });

  it('probes again a stable period after a step back the queue called for', () => {
    const { c, down, t } = probing();
    c.sample(queued, t, 30);
    const stable = c.stablePeriodMs;
    for (let u = t + 1_000; u < t + stable; u += 1_000) expect(c.sample(clean, u, 30)).toBe(down);
    expect(c.sample(clean, t + stable, 30)).toBe(down - 1);
  });

  it('does not step down for a queue alone, away from a step up (a key frame’s burst delays the voices too), but holds the next step up', () => {
    const c = new DownlinkController();
    for (let t = 0; t <= 6_000; t += 1_000) c.sample(lossy, t, 30);
    const down = c.cut;
    for (let t = 7_000; t < 7_000 + STABLE_MS + 5_000; t += 1_000) expect(c.sample(queued, t, 30)).toBe(down);
    // The queue gone: the step up comes at once, the stable period having run meanwhile.
    expect(c.sample(clean, 7_000 + STABLE_MS + 5_000, 30)).toBe(down - 1);
  });

  it('takes a step up back when the queue stands a little higher two looks running (a link just full), not for one', () => {
    const little = { ...clean, queueGrowthMs: QUEUE_STANDING_MS + 10 };
    const once = probing();
    expect(once.c.sample(little, once.t, 30)).toBe(once.down - 1);
    expect(once.c.sample(clean, once.t + 1_000, 30)).toBe(once.down - 1);
    const twice = probing();
    expect(twice.c.sample(little, twice.t, 30)).toBe(twice.down - 1);
    expect(twice.c.sample(little, twice.t + 1_000, 30)).toBe(twice.down);
  });

  it('takes a step up whose queue is near full back one rung past where it started (the queue drains in a second, not in four)', () => {
    const { c, down, t } = probing();
    expect(c.sample(nearFull, t, 30)).toBe(down + 1);
    // The rung back to where the probe started after the stable period, judged as a probe: held, the next follows
    // PROBE_HELD_MS later rather than a whole stable period.
    const stable = c.stablePeriodMs;
    for (let u = t + 1_000; u < t + stable; u += 1_000) expect(c.sample({ ...clean, receivedBitrate: 300_000 }, u, 30)).toBe(down + 1);
    expect(c.sample({ ...clean, receivedBitrate: 300_000 }, t + stable, 30)).toBe(down);
    for (let u = t + stable + 1_000; u < t + stable + PROBE_HELD_MS; u += 1_000) expect(c.sample(clean, u, 30)).toBe(down);
    expect(c.sample(clean, t + stable + PROBE_HELD_MS, 30)).toBe(down - 1);
  });

  it('goes one rung past where it started for a probe lost on a near-full queue too, never past the protected line', () => {
    const lost = { ...lossy, queueGrowthMs: QUEUE_NEAR_FULL_MS + 120 };
    const a = probing();
    expect(a.c.sample(lost, a.t, 30)).toBe(a.down + 1);
    const b = probing();
    expect(b.c.sample(nearFull, b.t, 30, b.down)).toBe(b.down);
  });

  it('reads near the ceiling from the most of the last looks: a second of silent voices does not make the next step up a growing one', () => {
    const c = new DownlinkController();
    for (let t = 0; t <= 6_000; t += 1_000) c.sample(lossy, t, 30);
    const down = c.cut;
    // Near the 500 kbit/s ceiling when the voices talk, far below it when they are silent.
    const spurts = (t: number) => ({ ...clean, receivedBitrate: t % 2_000 === 0 ? 450_000 : 300_000 });
    const steps: { at: number; by: number }[] = [];
    for (let t = 7_000, before = down; t < 30_000; t += 1_000, before = c.cut) if (c.sample(spurts(t), t, 30) !== before) steps.push({ at: t, by: before - c.cut });
    expect(steps.length).toBeGreaterThan(3);
    // One rung per probe, each after the last one held: no two cameras on at once.
    for (const [i, step] of steps.entries()) {
      expect(step.by).toBe(1);
      if (i > 0) expect(step.at - steps[i - 1]!.at).toBeGreaterThanOrEqual(PROBE_HELD_MS);
    }
  });

  it('judges a step up taken below the ceiling as a probe too (the voices silent that second): held, the next follows PROBE_HELD_MS later', () => {
    const c = new DownlinkController();
    for (let t = 0; t <= 6_000; t += 1_000) c.sample(lossy, t, 30);
    const down = c.cut;
    const quiet = { ...clean, receivedBitrate: 300_000 };
    let t = 7_000;
    for (; c.cut === down; t += 1_000) c.sample(quiet, t, 30);
    const upAt = t - 1_000;
    // From here the link is near its ceiling (500 kbit/s when it lost packets): a step not judged waited a whole
    // stable period for the next.
    for (; t < upAt + PROBE_HELD_MS; t += 1_000) expect(c.sample(clean, t, 30)).toBe(down - 1);
    expect(c.sample(clean, upAt + PROBE_HELD_MS, 30)).toBe(down - 2);
  });

  it('does not raise the ceiling from a second that carried more than it while the queue grew (a queue draining into a lifted link)', () => {
    const { c, t } = probing();
    const ceiling = c.ceilingBitrate!;
    c.sample({ ...queued, receivedBitrate: ceiling * 1.2 }, t, 30);
    expect(c.ceilingBitrate).toBe(ceiling);
  });

  it('does nothing when the delay is not known', () => {
    const { c, down, t } = probing();
    expect(c.sample({ ...clean, queueGrowthMs: null }, t, 30)).toBe(down - 1);
  });
});

describe('layer requests that fail or go unanswered', () => {
  it('holds the cut either way while they fail, and only the steps up while one waits long for its answer', () => {
    expect(layerRequestsHold({ failingMs: 1, oldestUnansweredMs: 0 })).toBe('all');
    expect(layerRequestsHold({ failingMs: 0, oldestUnansweredMs: UNANSWERED_HOLD_MS + 1 })).toBe('up');
    expect(layerRequestsHold({ failingMs: 0, oldestUnansweredMs: 1_000 })).toBeNull();

    const c = new DownlinkController();
    for (let t = 0; t <= 6_000; t += 1_000) c.sample(lossy, t, 30);
    const down = c.cut;
    for (let t = 7_000; t < 30_000; t += 1_000) expect(c.sample(t < 20_000 ? clean : lossy, t, 30, 30, 'all')).toBe(down);
    for (let t = 30_000; t < 45_000; t += 1_000) expect(c.sample(clean, t, 30, 30, 'up')).toBe(down);
    expect(c.sample(lossy, 45_000, 30, 30, 'up')).toBeGreaterThan(down);
  });

  it('starts the stable period again once they go through', () => {
    const c = new DownlinkController();
    for (let t = 0; t <= 6_000; t += 1_000) c.sample(lossy, t, 30);
    const down = c.cut;
    for (let t = 7_000; t < 20_000; t += 1_000) c.sample(clean, t, 30, 30, 'all');
    for (let t = 20_000; t < 20_000 + STABLE_MS; t += 1_000) expect(c.sample(clean, t, 30)).toBe(down);
    expect(c.sample(clean, 20_000 + STABLE_MS, 30)).toBe(down - 1);
  });
});

describe('heavy loss', () => {
  it('steps down twice as far (a shaping of a link to a third of what is sent), never past the protected line at once', () => {
    const steps = (loss: DownlinkSample) => {
      const c = new DownlinkController();
      const cuts: number[] = [];
      for (let t = 0; t <= 6_000; t += 1_000) cuts.push(c.sample(loss, t, 30, 14));
      return cuts;
    };
    const ordinary = steps(lossy);
    const heavy = steps({ videoLoss: 0.5, audioLoss: 0.3, receivedBitrate: 500_000 });
    expect(heavy[0]).toBe(2 * ordinary[0]!);
    expect(Math.max(...heavy)).toBe(14);
    expect(Math.max(...ordinary)).toBeLessThan(14);
  });
});

describe('the speakers', () => {
  const cam = (streamId: string, speakerRank: number | null): VideoDemand => ({
    streamId,
    kind: 'camera',
    interpreter: false,
    speakerRank,
    focused: false,
    mini: true,
    height: 100,
    cameraOff: false,
  });

  it('ranks the last heard first, and keeps a camera whose voice has stopped ahead of those never heard', () => {
    expect([...speakerRanks(new Map([['a', 1_000], ['b', 3_000], ['c', 2_000]]))]).toEqual([['b', 0], ['c', 1], ['a', 2]]);
    // One camera on at its lowest layer: Erik, who spoke a while ago, not Karin, who has not spoken.
    const tiles = [cam('erik', 0), cam('karin', null), cam('maja', null)];
    const on = allocate(tiles, 5).filter((p) => p.send).map((p) => p.streamId);
    expect(on).toEqual(['erik']);
  });
});
