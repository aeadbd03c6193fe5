import { describe, expect, it } from 'vitest';
import { inboundDelta, LossWatch, LOSS_SILENCE_MS, outboundLoss, signalLevel, STATS_INTERVAL_MS } from './network-quality.ts';

/** A controlled clock: the watch only sees the times we hand it. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, tick: (ms = STATS_INTERVAL_MS) => (now += ms) };
}

describe('signal level', () => {
  it('is danger above 0.05, warning above 0.025, else fine', () => {
    expect(signalLevel(0.051)).toBe('danger');
    expect(signalLevel(0.05)).toBe('warning');
    expect(signalLevel(0.026)).toBe('warning');
    expect(signalLevel(0.025)).toBe('fine');
    expect(signalLevel(0)).toBe('fine');
  });
});

describe('PUBLISHER_LOSS_RATIO_EXCEEDED', () => {
  it('is raised on the fifth consecutive sample at or above 0.05, from audio or video', () => {
    const c = clock();
    const w = new LossWatch();
    for (let i = 0; i < 4; i++) expect(w.sample(0.05, 0, c.tick())).toBe(false);
    expect(w.sample(0, 0.08, c.tick())).toBe(true);
  });

  it('starts counting again after a good sample', () => {
    const c = clock();
    const w = new LossWatch();
    for (let i = 0; i < 4; i++) expect(w.sample(0.2, 0.2, c.tick())).toBe(false);
    expect(w.sample(0.049, 0.01, c.tick())).toBe(false);
    for (let i = 0; i < 4; i++) expect(w.sample(0.2, 0.2, c.tick())).toBe(false);
    expect(w.sample(0.2, 0.2, c.tick())).toBe(true);
  });

  it('stays silent for 5 minutes after raising, then raises again after 5 more bad samples', () => {
    const c = clock();
    const w = new LossWatch();
    const raisedAt: number[] = [];
    const start = c.now();
    // Bad every second for six and a half minutes.
    for (let i = 0; i < 390; i++) {
      const t = c.tick();
      if (w.sample(0.3, 0.3, t)) raisedAt.push(t - start);
    }
    expect(raisedAt[0]).toBe(5 * STATS_INTERVAL_MS);
    expect(raisedAt[1]).toBeGreaterThanOrEqual(raisedAt[0]! + LOSS_SILENCE_MS);
    expect(raisedAt[1]).toBeLessThanOrEqual(raisedAt[0]! + LOSS_SILENCE_MS + 5 * STATS_INTERVAL_MS);
    expect(raisedAt).toHaveLength(2);
  });

  it('is silent until exactly 5 minutes after it was raised, and raises then if the loss went on', () => {
    const c = clock();
    const w = new LossWatch();
    for (let i = 0; i < 4; i++) w.sample(1, 1, c.tick());
    expect(w.sample(1, 1, c.tick())).toBe(true);
    const raised = c.now();
    c.tick(LOSS_SILENCE_MS - 6 * STATS_INTERVAL_MS);
    for (let i = 0; i < 5; i++) expect(w.sample(1, 1, c.tick())).toBe(false);
    expect(c.now() - raised).toBe(LOSS_SILENCE_MS - STATS_INTERVAL_MS);
    expect(w.sample(1, 1, c.tick())).toBe(true);
  });
});

describe('per-second figures', () => {
  it('turns two inbound snapshots into frame rate, bitrate and loss', () => {
    const a = { kind: 'video' as const, timestamp: 1000, bytesReceived: 0, packetsReceived: 0, packetsLost: 0, framesDecoded: 0 };
    const b = { kind: 'video' as const, timestamp: 2000, bytesReceived: 125_000, packetsReceived: 90, packetsLost: 10, framesDecoded: 30 };
    expect(inboundDelta(a, b)).toEqual({ frameRate: 30, bitrate: 1_000_000, packetsLost: 10, lossRatio: 0.1 });
    expect(inboundDelta(undefined, b)).toEqual({ frameRate: 0, bitrate: 0, packetsLost: 0, lossRatio: 0 });
    expect(inboundDelta({ ...a, kind: 'audio' }, { ...b, kind: 'audio' }).frameRate).toBeNull();
  });
  it('computes the publisher loss from receiver reports, else the reported fraction', () => {
    expect(outboundLoss({ kind: 'video', packetsSent: 100, packetsLost: 5, fractionLost: 0 }, { kind: 'video', packetsSent: 200, packetsLost: 25, fractionLost: 0.01 })).toBe(0.2);
    expect(outboundLoss(undefined, { kind: 'audio', packetsSent: 50, packetsLost: null, fractionLost: 0.07 })).toBe(0.07);
  });
});
