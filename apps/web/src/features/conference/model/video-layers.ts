/**
 * Which simulcast layer this viewer receives of each remote video, free of React and of Janus: the media layer
 * measures (tile sizes, the 1 s stats) and applies the answer with a subscriber `configure` per `mid`.
 *
 * Two inputs decide it. What each tile needs from its size on the screen (`wantedRung`), and what the downlink
 * carries (`DownlinkController` in downlink-controller.ts: how many rungs to take off everyone's ideal, stepping down fast on loss and back
 * up only after a stable period). `allocate` then takes that many rungs off in a fixed order: ordinary videos
 * first (least important first, all down to their lowest layer before any is turned off), the sign-language
 * interpreter and the screen share last; they are also the first given back, because the order is the same.
 */

/** Janus's simulcast substream (0 = a quarter of the captured size, 1 = half, 2 = full) and temporal layer. */
export type Substream = 0 | 1 | 2;
export type Temporal = 0 | 1 | 2;

export interface LayerChoice {
  substream: Substream;
  temporal: Temporal;
}

/** One remote video as this page shows it now. */
export interface VideoDemand {
  streamId: string;
  kind: 'camera' | 'screen';
  /** The booked sign-language interpreter's camera: what a deaf participant cannot do without. */
  interpreter: boolean;
  /**
   * Among the people heard speaking in this call, 0 for the last one heard, 1 for the one before… (speakerRanks);
   * null: not heard yet. They come after the interpreter, the share and the focused stream, the last heard first.
   */
  speakerRank: number | null;
  focused: boolean;
  /** Shown among the minis. */
  mini: boolean;
  /** Rendered height in device pixels; 0 when the tile is not on screen (collapsed minis, hidden tab). */
  height: number;
  /** The sender has turned its camera off: the tile shows initials, and what is sent is black. */
  cameraOff: boolean;
}

/** What to ask Janus for one video: nothing (paused or turned off, audio goes on) or a layer. */
export type VideoPlan =
  | { streamId: string; send: true; layer: LayerChoice }
  /** `hidden`: nobody can see it (tab hidden, minis collapsed); `bandwidth`: the downlink cannot carry it (say so). */
  | { streamId: string; send: false; reason: 'hidden' | 'bandwidth' };

/**
 * The rungs of a camera, lowest first. Rung 0 is "off". The lowest layer at half frame rate comes first, so that a
 * video is made cheaper before it is taken away; full frame rate otherwise (a signer's hands need it).
 */
export const CAMERA_RUNGS: readonly (LayerChoice | null)[] = [
  null,
  { substream: 0, temporal: 1 },
  { substream: 0, temporal: 2 },
  { substream: 1, temporal: 2 },
  { substream: 2, temporal: 2 },
];
/** A screen share is one layer (text must stay sharp): on or off. */
export const SCREEN_RUNGS: readonly (LayerChoice | null)[] = [null, { substream: 2, temporal: 2 }];
/** The interpreter keeps at least the middle layer at full frame rate while anything else is received. */
export const INTERPRETER_FLOOR_RUNG = 3;

/**
 * Rendered heights (device pixels) up to which a lower layer is enough: the layers of a 1280x720 camera are 180,
 * 360 and 720 high, and a layer a little smaller than its tile still looks sharp once scaled.
 */
export const LOW_LAYER_MAX_HEIGHT = 240;
export const MEDIUM_LAYER_MAX_HEIGHT = 480;

/**
 * A video whose tile the screen has not put on the page yet: the tile is mounted a render after the stream arrives
 * (over a second on a loaded machine), so no tile then means "not yet", not "hidden". Pausing it would hold the
 * person's first picture back until the next look, and turning it on again costs a key frame from that camera for
 * everyone. So its layer is left as Janus has it until its tile has been seen, or for TILE_WAIT_MS.
 */
export const TILE_WAIT_MS = 3_000;

export function awaitingTile(tileSeen: boolean, arrivedAt: number, now: number): boolean {
  return !tileSeen && now - arrivedAt < TILE_WAIT_MS;
}

/** The rung a tile needs from its size and place alone (0: not visible or no picture, nothing to receive). */
export function wantedRung(d: VideoDemand): number {
  if (d.height <= 0 || d.cameraOff) return 0;
  if (d.kind === 'screen') return SCREEN_RUNGS.length - 1;
  if (d.focused) return 4;
  if (d.mini || d.height <= LOW_LAYER_MAX_HEIGHT) return 2;
  if (d.height <= MEDIUM_LAYER_MAX_HEIGHT) return 3;
  return 4;
}

/** Lower = more important. Ties: the larger tile, then the stream id, so the same situation gives the same plan. */
export function importance(d: VideoDemand): number {
  if (d.interpreter) return 0;
  if (d.kind === 'screen') return 1;
  // The focused stream before the speaker: the viewer chose it (Jitsi's on-stage endpoint comes first too). The
  // other way round, whoever spoke took the focused stream's rung on a short link, and it went off and on with the
  // voices (every second or two in the browser test, a key frame each time, for 15-29 s after a shaping was lifted).
  if (d.focused) return 2;
  // Whoever has spoken, not only whoever speaks now: as the voices took turns, the speaker's rung went from one
  // camera to another and back (each move a key frame) every few seconds.
  if (d.speakerRank !== null) return 3;
  if (d.mini) return 5;
  return 4;
}

function byImportance(a: VideoDemand, b: VideoDemand): number {
  return importance(a) - importance(b) || (a.speakerRank ?? 0) - (b.speakerRank ?? 0) || b.height - a.height || (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0);
}

const rungsOf = (d: VideoDemand) => (d.kind === 'screen' ? SCREEN_RUNGS : CAMERA_RUNGS);
const isProtected = (d: VideoDemand) => d.interpreter || d.kind === 'screen';

/**
 * The order in which rungs are taken off when the downlink is short (each entry: one stream loses one rung).
 * 1. ordinary videos, least important first, one rung each per round, down to their lowest layer;
 * 2. the interpreter down to its floor (middle layer, full frame rate);
 * 3. ordinary videos off, least important first;
 * 4. the screen share off, then the interpreter to its lowest layer, then off.
 */
export function reductionOrder(demands: readonly VideoDemand[], wanted: ReadonlyMap<string, number>): string[] {
  const sorted = [...demands].sort(byImportance);
  const ordinary = sorted.filter((d) => !isProtected(d)).reverse();
  const rung = new Map(sorted.map((d) => [d.streamId, wanted.get(d.streamId) ?? 0]));
  const order: string[] = [];
  const lower = (id: string, downTo: number) => {
    while ((rung.get(id) ?? 0) > downTo) {
      rung.set(id, rung.get(id)! - 1);
      order.push(id);
    }
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of ordinary) {
      if ((rung.get(d.streamId) ?? 0) > 1) {
        rung.set(d.streamId, rung.get(d.streamId)! - 1);
        order.push(d.streamId);
        changed = true;
      }
    }
  }
  for (const d of sorted) if (d.interpreter) lower(d.streamId, INTERPRETER_FLOOR_RUNG);
  for (const d of ordinary) lower(d.streamId, 0);
  for (const d of sorted) if (d.kind === 'screen' && !d.interpreter) lower(d.streamId, 0);
  for (const d of sorted) if (d.interpreter) lower(d.streamId, 0);
  return order;
}

/** The plan for every video after `cut` rungs are taken off their wanted layers (see reductionOrder). */
export function allocate(demands: readonly VideoDemand[], cut: number): VideoPlan[] {
  const wanted = new Map(demands.map((d) => [d.streamId, wantedRung(d)]));
  const rung = new Map(wanted);
  const order = reductionOrder(demands, wanted);
  for (const id of order.slice(0, Math.max(0, cut))) rung.set(id, rung.get(id)! - 1);
  return demands.map((d) => {
    const r = rung.get(d.streamId) ?? 0;
    const layer = rungsOf(d)[r];
    if (layer) return { streamId: d.streamId, send: true, layer };
    return { streamId: d.streamId, send: false, reason: wanted.get(d.streamId) === 0 ? 'hidden' : 'bandwidth' };
  });
}

/**
 * How many rungs `allocate` takes off before the screen share or the interpreter lose anything below the
 * interpreter's floor: every ordinary video off, the interpreter at its floor. The controller crosses this line one
 * rung at a time, and only when loss goes on there (DownlinkController.sample).
 */
export function protectedCut(demands: readonly VideoDemand[]): number {
  const wanted = new Map(demands.map((d) => [d.streamId, wantedRung(d)]));
  const order = reductionOrder(demands, wanted);
  const protectedIds = new Set(demands.filter(isProtected).map((d) => d.streamId));
  const floor = new Map(demands.filter((d) => d.interpreter).map((d) => [d.streamId, Math.max(0, (wanted.get(d.streamId) ?? 0) - INTERPRETER_FLOOR_RUNG)]));
  let n = 0;
  for (const id of order) {
    if (!protectedIds.has(id)) {
      n += 1;
      continue;
    }
    // The interpreter's rungs above its floor are taken among the ordinary videos' (reductionOrder, step 2).
    const above = floor.get(id) ?? 0;
    if (above > 0) {
      floor.set(id, above - 1);
      n += 1;
      continue;
    }
    break;
  }
  return n;
}

/** How many rungs `allocate` can take off at most: everything visible turned off. */
export function maxCut(demands: readonly VideoDemand[]): number {
  return demands.reduce((n, d) => n + wantedRung(d), 0);
}

/** An audio level (0..1, getStats `audioLevel`) above this is speech rather than room noise. */
export const SPEAKING_LEVEL = 0.05;
/** The speaker stays the speaker through pauses this long, so a breath does not reshuffle everyone's layers. */
export const SPEAKER_HOLD_MS = 3_000;

/** Who speaks now: the loudest stream above SPEAKING_LEVEL, else the last speaker within SPEAKER_HOLD_MS. */
export function currentSpeaker(levels: ReadonlyMap<string, number>, last: { streamId: string; at: number } | null, now: number): { streamId: string; at: number } | null {
  let best: string | null = null;
  let bestLevel = SPEAKING_LEVEL;
  for (const [id, level] of levels) {
    if (level > bestLevel) {
      best = id;
      bestLevel = level;
    }
  }
  if (best) return { streamId: best, at: now };
  return last && now - last.at < SPEAKER_HOLD_MS && levels.has(last.streamId) ? last : null;
}

/** Who has been heard speaking (stream id → when last heard) as ranks, the last heard 0 (VideoDemand.speakerRank). */
export function speakerRanks(lastHeard: ReadonlyMap<string, number>): Map<string, number> {
  const order = [...lastHeard].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return new Map(order.map(([id], i) => [id, i]));
}
