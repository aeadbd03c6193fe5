import { describe, expect, it } from 'vitest';
import { failOverTarget, placeRoom, publisherBitrateCap } from './media-rooms.ts';

const loads = new Map([['a', 3], ['b', 1], ['c', 2]]);

describe('placeRoom', () => {
  it('keeps a recorded room on an instance still configured', () => {
    expect(placeRoom('a', ['a', 'b', 'c'], loads)).toBeNull();
  });
  it('puts a new room, or one whose instance is no longer configured, on the least loaded instance', () => {
    expect(placeRoom(null, ['a', 'b', 'c'], loads)).toBe('b');
    expect(placeRoom('gone', ['a', 'c'], loads)).toBe('c');
    expect(placeRoom(null, ['a', 'd'], loads)).toBe('d'); // no rooms yet counts as none
  });
});

describe('failOverTarget', () => {
  it('moves a room off an instance that does not answer to the least loaded one that does', () => {
    expect(failOverTarget('b', ['a', 'b', 'c'], ['a', 'c'], loads)).toBe('c');
  });
  it('stays when the instance answers, when it is the only one, or when no other answers either', () => {
    expect(failOverTarget('b', ['a', 'b', 'c'], ['b', 'c'], loads)).toBeNull();
    expect(failOverTarget('b', ['b'], [], loads)).toBeNull();
    expect(failOverTarget('b', ['a', 'b', 'c'], [], loads)).toBeNull();
  });
});

describe('publisherBitrateCap', () => {
  it('leaves room for all three simulcast layers (the larger of camera top and screen) plus 15 %', () => {
    expect(publisherBitrateCap({ lowKbps: 100, mediumKbps: 300, highKbps: 1200, screenKbps: 1500, screenFps: 5 })).toBe(Math.round(1_900_000 * 1.15));
  });
});
