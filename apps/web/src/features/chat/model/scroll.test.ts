import { describe, expect, it, vi } from 'vitest';
import { formatChatTime, isNearBottom, throttle } from './scroll.ts';

describe('chat scrolling', () => {
  it('follows within 16 px of the bottom only', () => {
    expect(isNearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 584 })).toBe(true);
    expect(isNearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 583 })).toBe(false);
  });

  it('throttles to once per 100 ms with a trailing call', () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const f = throttle((n: number) => calls.push(n), 100, () => Date.now());
    f(1);
    f(2);
    f(3);
    expect(calls).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(calls).toEqual([1, 3]);
    vi.useRealTimers();
  });

  it('shows times as HH:mm in Swedish time', () => {
    expect(formatChatTime('2026-11-21T08:05:00Z')).toBe('09:05');
    expect(formatChatTime('2026-07-01T08:05:00Z')).toBe('10:05');
  });
});
