import { describe, expect, it } from 'vitest';
import { cpuSlowdownFor, median } from './lighthouse-figures.ts';

describe('cpuSlowdownFor', () => {
  it('follows the calculator: 2000 → 6×, 1533 → 4×, 1300 → 3×, 800 → 2×, 150 → 1×', () => {
    expect(cpuSlowdownFor(2000)).toBeCloseTo(6, 1);
    expect(cpuSlowdownFor(1533)).toBeCloseTo(4, 2);
    expect(cpuSlowdownFor(1300)).toBe(3);
    expect(cpuSlowdownFor(1050)).toBe(2.5);
    expect(cpuSlowdownFor(800)).toBe(2);
    expect(cpuSlowdownFor(475)).toBe(1.5);
  });
  it('never speeds the CPU up: a host slower than the phone, or no index, runs unthrottled', () => {
    expect(cpuSlowdownFor(150)).toBe(1);
    expect(cpuSlowdownFor(90)).toBe(1);
    expect(cpuSlowdownFor(NaN)).toBe(1);
  });
});

describe('median', () => {
  it('takes the middle of an odd count and the lower middle of an even one', () => {
    expect(median([0.9, 0.7, 0.8])).toBe(0.8);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(median([])).toBeNaN();
  });
});
