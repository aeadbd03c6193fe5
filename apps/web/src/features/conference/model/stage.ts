import { layout, MAX_MAIN_STREAMS, type Layout, type LayoutInput } from './layout.ts';

/**
 * Who stays on stage. A sign-language interpreter publishing video is never hidden among the minis nor
 * pushed out of the grid, for everyone, also beside a focused stream; each user may also pin up to two tiles for
 * themselves. The interpreter's role comes from the server (the booking, via the media token's participant list),
 * never from what a browser says about itself.
 */
export const MAX_PINS = 2;

type Tile = { streamId: string; videoType: 'camera' | 'screen'; connectionId: string };

export interface StageInput<T extends Tile> extends LayoutInput<T> {
  /** Stream ids that must stay on stage for everyone (interpreters' cameras with video). */
  interpreters: readonly string[];
  /** Stream ids this user pinned (at most MAX_PINS are honoured, in order). */
  pinned: readonly string[];
}

export interface StageLayout<T> extends Layout<T> {
  /** Stream ids kept on stage by the rules above (for a marker on the tile and for tests). */
  kept: string[];
}

export function stageLayout<T extends Tile>(input: StageInput<T>): StageLayout<T> {
  const present = new Set(input.tiles.map((t) => t.streamId));
  const pinned = input.pinned.filter((id) => present.has(id)).slice(0, MAX_PINS);
  // Interpreters first: they are what a deaf participant cannot do without; pins after them.
  const kept = [...new Set([...input.interpreters.filter((id) => present.has(id)), ...pinned])];
  const base = layout(input);
  if (!kept.length) return { ...base, kept };
  const keptTiles = kept.map((id) => input.tiles.find((t) => t.streamId === id)!);

  if (input.focusedStreamId && base.mainClass.startsWith('focus')) {
    // Beside the focused stream (a screen share above all): the kept tiles join the main area.
    const main = [...base.main, ...keptTiles.filter((t) => !base.main.includes(t))];
    const side = base.side.filter((t) => !main.includes(t));
    const extra = main.length > base.main.length;
    return {
      main,
      side,
      mainClass: extra ? `${base.mainClass} focus-with-stage stage-${main.length}` : base.mainClass,
      sideOneColumn: side.length >= 1 && side.length <= 3,
      showSide: input.showMinis && side.length > 0,
      kept,
    };
  }
  // The grid: kept tiles take the first places, so more than MAX_MAIN_STREAMS never pushes them to the side.
  const rest = input.tiles.filter((t) => !kept.includes(t.streamId));
  const ordered = [...keptTiles, ...rest];
  const main = ordered.slice(0, MAX_MAIN_STREAMS);
  const side = ordered.slice(MAX_MAIN_STREAMS);
  return { main, side, mainClass: `grid-${Math.max(main.length, 1)}`, sideOneColumn: side.length >= 1 && side.length <= 3, showSide: input.showMinis && side.length > 0, kept };
}

/** Pins are kept per meeting by who and what (participant id or name, camera or screen): connection ids change on reconnect. */
export const pinKey = (who: string, videoType: 'camera' | 'screen') => `${who}|${videoType}`;

const storageKey = (meetingId: string) => `videomote.pins.${meetingId}`;

export function loadPins(storage: Pick<Storage, 'getItem'> | null, meetingId: string): string[] {
  try {
    const raw = JSON.parse(storage?.getItem(storageKey(meetingId)) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string').slice(0, MAX_PINS) : [];
  } catch {
    return [];
  }
}

export function savePins(storage: Pick<Storage, 'setItem'> | null, meetingId: string, pins: readonly string[]): void {
  try {
    storage?.setItem(storageKey(meetingId), JSON.stringify(pins.slice(0, MAX_PINS)));
  } catch {
    // Private mode or a full storage: the pin still holds for this page, just not after a reload.
  }
}

/**
 * Pinning a pinned tile unpins it. A third pin is refused (`refused`, pins unchanged) rather than silently letting
 * go of an older one: the user chose those, and is told to unpin one first.
 */
export function togglePin(pins: readonly string[], key: string): { pins: string[]; refused: boolean } {
  if (pins.includes(key)) return { pins: pins.filter((p) => p !== key), refused: false };
  if (pins.length >= MAX_PINS) return { pins: [...pins], refused: true };
  return { pins: [...pins, key], refused: false };
}
