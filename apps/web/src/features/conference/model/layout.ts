import { STATUS_TEXTS } from './texts.ts';
/** Layout rules of conference spec §4 and §9, free of React and of the media library. */
export const MAX_MAIN_STREAMS = 12;
export const KEEP_ALIVE_MS = 30_000;
export const PUBLISHER_RESTART_MS = 1_000;
export const SIDE_PANEL_WIDTH = 346;

/** Breakpoints (spec §9). */
export const BREAKPOINTS = { phonePortraitMax: 599.98, tabletPortraitMax: 839.98, phoneLandscapeMax: 959.98, tabletLandscapeMax: 1279.98 } as const;

export type Device = 'phone' | 'tablet' | 'desktop';

/** Phone: narrow portrait, or a short landscape window; tablet: up to the landscape-tablet edge. */
export function deviceFor(width: number, height: number): Device {
  const landscape = width > height;
  if (!landscape && width <= BREAKPOINTS.phonePortraitMax) return 'phone';
  if (landscape && width <= BREAKPOINTS.phoneLandscapeMax && height <= BREAKPOINTS.phonePortraitMax) return 'phone';
  if (width <= BREAKPOINTS.tabletLandscapeMax) return 'tablet';
  return 'desktop';
}

/** Initials (spec §5): several words → first letters of the first and last; one word → its first two letters. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  if (words.length === 1) return words[0]!.slice(0, 2).toLocaleUpperCase('sv');
  return (words[0]![0]! + words[words.length - 1]![0]!).toLocaleUpperCase('sv');
}

export interface LayoutInput<T extends { streamId: string; videoType: 'camera' | 'screen'; connectionId: string }> {
  tiles: T[];
  focusedStreamId: string | null;
  showMinis: boolean;
}

export interface Layout<T> {
  main: T[];
  side: T[];
  /** A CSS class that sizes the main grid for its count (`grid-1` … `grid-12`), or `focus`. */
  mainClass: string;
  /** Side tiles in one column when there are 1 to 3 of them. */
  sideOneColumn: boolean;
  /** Whether the side tiles (minis) are shown at all. */
  showSide: boolean;
}

/**
 * A focused stream fills the main area and the rest become side tiles; otherwise up to 12 streams share the
 * main grid and any more become side tiles. With a focused screen share and minis hidden, the sharer's camera
 * joins the main area too.
 */
export function layout<T extends { streamId: string; videoType: 'camera' | 'screen'; connectionId: string }>(input: LayoutInput<T>): Layout<T> {
  const focused = input.focusedStreamId ? input.tiles.find((t) => t.streamId === input.focusedStreamId) : undefined;
  if (focused) {
    const rest = input.tiles.filter((t) => t !== focused);
    const main = [focused];
    if (focused.videoType === 'screen' && !input.showMinis) {
      const camera = rest.find((t) => t.connectionId === focused.connectionId && t.videoType === 'camera');
      if (camera) main.push(camera);
    }
    const side = rest.filter((t) => !main.includes(t));
    return { main, side, mainClass: main.length === 1 ? 'focus' : 'focus focus-with-camera', sideOneColumn: side.length >= 1 && side.length <= 3, showSide: input.showMinis && side.length > 0 };
  }
  const main = input.tiles.slice(0, MAX_MAIN_STREAMS);
  const side = input.tiles.slice(MAX_MAIN_STREAMS);
  return { main, side, mainClass: `grid-${Math.max(main.length, 1)}`, sideOneColumn: side.length >= 1 && side.length <= 3, showSide: input.showMinis && side.length > 0 };
}

/**
 * The call status line (spec §2 "Call status screen"). Before the first attempt (`idle`) it already says
 * 'Ansluter...': 'Anslutning misslyckades' is for a connection that was tried and failed.
 */
export function statusText(status: 'idle' | 'disconnected' | 'connecting' | 'connected', participants: number): string {
  if (status === 'connecting' || status === 'idle') return STATUS_TEXTS.connecting;
  if (status === 'disconnected') return STATUS_TEXTS.connectionFailed;
  return participants <= 1 ? STATUS_TEXTS.alone : STATUS_TEXTS.participating(participants);
}

/** The stored participant count is only ever raised (spec §9). */
export function raisedCount(stored: string | null, current: number): number {
  const previous = Number(stored);
  return Number.isFinite(previous) && previous > current ? previous : current;
}

/** Preferred device by label, case-insensitively (spec §5); null when none matches. */
export function matchDevice<T extends { label: string }>(devices: readonly T[], label: string | null): T | null {
  if (!label) return null;
  const wanted = label.toLocaleLowerCase('sv');
  return devices.find((d) => d.label.toLocaleLowerCase('sv') === wanted) ?? null;
}

/** Spec §2's 'no streams' status: connected, and no tile shows moving pictures (a screen share always does). */
export function nobodySendsVideo(status: string, tiles: readonly { hasVideo: boolean; videoType: 'camera' | 'screen' }[]): boolean {
  return status === 'connected' && !tiles.some((t) => t.hasVideo || t.videoType === 'screen');
}

/**
 * The height (CSS pixels) a video's tile will have before the screen has drawn it: a cell of the grid of everyone in
 * the call. A joiner subscribes to the whole call at once, a render before any tile is on the page; asked for
 * without a size, every camera came at its top layer (seven 720p streams to carry and decode for the first second
 * of an eight-person call, on whatever link the joiner has).
 */
export function expectedTileHeight(people: number, area: { width: number; height: number }): number {
  return gridFit(Math.min(Math.max(people, 1), MAX_MAIN_STREAMS), area.width, area.height).tileHeight;
}

/** The aspect ratio tiles are fitted to: what cameras and screens send (16:9), not the window's shape. */
export const VIDEO_ASPECT = 16 / 9;

export interface GridFit {
  columns: number;
  rows: number;
  /** The tile's box in CSS pixels, near VIDEO_ASPECT and as large as the area allows. */
  tileWidth: number;
  tileHeight: number;
}

/**
 * How `count` tiles fill an area: the number of columns that gives each tile the largest box of the video's aspect
 * ratio. A phone in portrait gets one column (two people one above the other, never two tall slivers side by side);
 * a wide window gets a row. Ties go to fewer columns.
 */
export function gridFit(count: number, width: number, height: number, gap = 8, aspect = VIDEO_ASPECT): GridFit {
  const n = Math.max(1, count);
  let best: GridFit = { columns: 1, rows: n, tileWidth: 0, tileHeight: 0 };
  for (let columns = 1; columns <= n; columns++) {
    const rows = Math.ceil(n / columns);
    const cellW = (width - gap * (columns - 1)) / columns;
    const cellH = (height - gap * (rows - 1)) / rows;
    if (cellW <= 0 || cellH <= 0) continue;
    const tileWidth = Math.floor(Math.min(cellW, cellH * aspect));
    const tileHeight = Math.floor(tileWidth / aspect);
    if (tileWidth * tileHeight > best.tileWidth * best.tileHeight) best = { columns, rows, tileWidth, tileHeight };
  }
  return best;
}
