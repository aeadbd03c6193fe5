import { describe, expect, it } from 'vitest';
import { cpuSlowdownFor, median, withoutScripts } from './lighthouse-figures.ts';

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

describe('withoutScripts', () => {
  it('keeps the page and its styles, drops every script and module preload', () => {
    const html = [
      '<head><link rel="stylesheet" href="/assets/index.css">',
      '<script type="module" async crossorigin src="/assets/early-start.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/index.js" data-videomote-app>',
      '<script>window.x = "</p>";</script></head><body><div id="root"></div></body>',
    ].join('\n    ');
    expect(withoutScripts(html)).toBe('<head><link rel="stylesheet" href="/assets/index.css"></head><body><div id="root"></div></body>');
  });
});
