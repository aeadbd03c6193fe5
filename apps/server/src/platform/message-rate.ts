/**
 * A token bucket per chat connection: a short burst is fine (someone pasting three lines), a steady stream is not.
 * Time is passed in so tests need no clock.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly capacity: number,
    private readonly refillPerSecond: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.last = now;
  }

  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.refillPerSecond);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * Counts refused frames in a sliding window; a client that keeps sending after being told to slow down is
 * flooding, and its socket is closed so it cannot cost the meeting's other members anything more.
 */
export class FloodGuard {
  private readonly refusals: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records one refusal; true when the limit is passed. */
  refuse(now: number): boolean {
    this.refusals.push(now);
    while (this.refusals.length && this.refusals[0]! <= now - this.windowMs) this.refusals.shift();
    return this.refusals.length > this.limit;
  }
}
