import { describe, expect, it } from 'vitest';
import { DTX_KEEPALIVE_EVERY, sendsFrame } from './opus-dtx.ts';

describe('Opus DTX of a synthetic voice', () => {
  it('sends every sounding frame, and of a silence its first frame and then one every 400 ms', () => {
    expect(sendsFrame(80, 0)).toBe(true);
    expect(sendsFrame(80, 7)).toBe(true);
    const silence = Array.from({ length: 100 }, (_, i) => sendsFrame(3, i));
    expect(silence.filter(Boolean)).toHaveLength(100 / DTX_KEEPALIVE_EVERY);
    expect(silence[0]).toBe(true);
    expect(silence.indexOf(true, 1)).toBe(DTX_KEEPALIVE_EVERY);
  });
});
