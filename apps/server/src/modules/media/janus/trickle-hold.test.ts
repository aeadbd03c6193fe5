import { describe, expect, it } from 'vitest';
import { MAX_HELD_TRICKLES, TrickleHold } from './trickle-hold.ts';

describe('TrickleHold', () => {
  it("holds a handle's candidates from its offer until Janus answers that offer's transaction, then hands them in order", () => {
    const hold = new TrickleHold();
    expect(hold.hold(1, 'before any offer')).toBe(false);
    hold.offerSent(1, 'tx-offer');
    expect(hold.hold(1, 'c1')).toBe(true);
    expect(hold.hold(1, 'c2')).toBe(true);
    // Another handle's candidates are not behind this offer.
    expect(hold.hold(2, 'other handle')).toBe(false);
    expect(hold.answered('tx-other')).toEqual([]);
    expect(hold.answered('tx-offer')).toEqual(['c1', 'c2']);
    // Taken: later candidates go at once, and a second answer to the same transaction hands nothing again.
    expect(hold.hold(1, 'c3')).toBe(false);
    expect(hold.answered('tx-offer')).toEqual([]);
  });

  it('a newer offer on the same handle keeps what is held and waits for its own answer', () => {
    const hold = new TrickleHold();
    hold.offerSent(1, 'first');
    hold.hold(1, 'c1');
    hold.offerSent(1, 'second');
    hold.hold(1, 'c2');
    expect(hold.answered('first')).toEqual([]);
    expect(hold.answered('second')).toEqual(['c1', 'c2']);
  });

  it('holds a bounded number per handle; beyond it candidates go at once', () => {
    const hold = new TrickleHold();
    hold.offerSent(1, 'tx');
    for (let i = 0; i < MAX_HELD_TRICKLES; i++) expect(hold.hold(1, `c${i}`)).toBe(true);
    expect(hold.hold(1, 'one too many')).toBe(false);
    expect(hold.answered('tx')).toHaveLength(MAX_HELD_TRICKLES);
  });
});
