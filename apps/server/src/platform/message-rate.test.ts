import { describe, expect, it } from 'vitest';
import { FloodGuard, TokenBucket } from './message-rate.ts';

describe('TokenBucket', () => {
  it('allows a burst, then the steady rate', () => {
    const bucket = new TokenBucket(3, 2, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, true, false]);
    expect(bucket.take(400)).toBe(false); // 0.8 of a token
    expect(bucket.take(500)).toBe(true);
    expect(bucket.take(10_000)).toBe(true);
  });
});

describe('FloodGuard', () => {
  it('trips past the limit within the window only', () => {
    const guard = new FloodGuard(2, 1000);
    expect([guard.refuse(0), guard.refuse(10), guard.refuse(20)]).toEqual([false, false, true]);
    const slow = new FloodGuard(2, 1000);
    expect([slow.refuse(0), slow.refuse(600), slow.refuse(1200), slow.refuse(1800)]).toEqual([false, false, false, false]);
  });
});
