import { describe, expect, it } from 'vitest';
import { loadPins, MAX_PINS, pinKey, savePins, stageLayout, togglePin } from './stage.ts';

const cam = (n: number) => ({ streamId: `camera-c${n}`, connectionId: `c${n}`, videoType: 'camera' as const });
const screen = (n: number) => ({ streamId: `screen-c${n}`, connectionId: `c${n}`, videoType: 'screen' as const });
const ids = (ts: { streamId: string }[]) => ts.map((t) => t.streamId);

describe('stageLayout: the sign-language interpreter stays on stage', () => {
  it('with 8 other participants the interpreter is in the main grid, listed first', () => {
    const tiles = [...Array.from({ length: 8 }, (_, i) => cam(i + 1)), cam(9)];
    const v = stageLayout({ tiles, focusedStreamId: null, showMinis: true, interpreters: ['camera-c9'], pinned: [] });
    expect(v.main).toHaveLength(9);
    expect(ids(v.main)[0]).toBe('camera-c9');
    expect(v.side).toEqual([]);
    expect(v.kept).toEqual(['camera-c9']);
  });

  it('is never pushed to the minis when there are more than 12 streams', () => {
    const tiles = Array.from({ length: 20 }, (_, i) => cam(i + 1));
    const v = stageLayout({ tiles, focusedStreamId: null, showMinis: false, interpreters: ['camera-c20'], pinned: [] });
    expect(ids(v.main)).toContain('camera-c20');
    expect(v.main).toHaveLength(12);
    expect(ids(v.side)).not.toContain('camera-c20');
  });

  it('stays beside a focused screen share, minis shown or hidden', () => {
    const tiles = [cam(1), screen(1), cam(2), cam(3), cam(4)];
    for (const showMinis of [true, false]) {
      const v = stageLayout({ tiles, focusedStreamId: 'screen-c1', showMinis, interpreters: ['camera-c3'], pinned: [] });
      expect(ids(v.main)[0]).toBe('screen-c1');
      expect(ids(v.main)).toContain('camera-c3');
      expect(ids(v.side)).not.toContain('camera-c3');
      expect(v.mainClass).toContain('focus-with-stage');
    }
  });

  it('changes nothing when nobody is kept, or the interpreter publishes no video (not in the tiles)', () => {
    const tiles = [cam(1), screen(1), cam(2)];
    const v = stageLayout({ tiles, focusedStreamId: 'screen-c1', showMinis: true, interpreters: ['camera-c7'], pinned: [] });
    expect(ids(v.main)).toEqual(['screen-c1']);
    expect(v.mainClass).toBe('focus');
    expect(v.kept).toEqual([]);
  });

  it('a focused interpreter is not doubled', () => {
    const v = stageLayout({ tiles: [cam(1), cam(2)], focusedStreamId: 'camera-c2', showMinis: true, interpreters: ['camera-c2'], pinned: [] });
    expect(ids(v.main)).toEqual(['camera-c2']);
    expect(v.mainClass).toBe('focus');
  });
});

describe('pins', () => {
  it('honours at most two pins, after the interpreters, and keeps them on stage beside a focus', () => {
    const tiles = Array.from({ length: 16 }, (_, i) => cam(i + 1));
    const v = stageLayout({ tiles, focusedStreamId: 'camera-c1', showMinis: true, interpreters: ['camera-c16'], pinned: ['camera-c15', 'camera-c14', 'camera-c13'] });
    expect(ids(v.main)).toEqual(['camera-c1', 'camera-c16', 'camera-c15', 'camera-c14']);
    expect(v.kept).toHaveLength(1 + MAX_PINS);
  });

  it('toggle: a third pin is refused and changes nothing, a second press unpins, then there is room again', () => {
    let pins: string[] = [];
    pins = togglePin(pins, 'a').pins;
    pins = togglePin(pins, 'b').pins;
    expect(pins).toEqual(['a', 'b']);
    expect(togglePin(pins, 'c')).toEqual({ pins: ['a', 'b'], refused: true });
    const unpinned = togglePin(pins, 'a');
    expect(unpinned).toEqual({ pins: ['b'], refused: false });
    expect(togglePin(unpinned.pins, 'c')).toEqual({ pins: ['b', 'c'], refused: false });
  });

  it('survive a reload per meeting (keyed by participant, not by connection), and bad storage is ignored', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    savePins(storage, 'm1', [pinKey('p1', 'camera'), pinKey('p2', 'screen')]);
    expect(loadPins(storage, 'm1')).toEqual(['p1|camera', 'p2|screen']);
    expect(loadPins(storage, 'm2')).toEqual([]);
    store.set('videomote.pins.m3', '{not json');
    expect(loadPins(storage, 'm3')).toEqual([]);
    expect(loadPins(null, 'm1')).toEqual([]);
  });
});
