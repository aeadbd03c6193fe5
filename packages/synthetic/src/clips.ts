/**
 * The committed pre-encoded media (scripts/make-clips.sh): one VP8 loop per simulcast layer, with the temporal layer
 * and key-frame position of every frame worked out once, and one Opus loop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { opusPacketMs, readIvf, readOggOpus } from './containers.ts';
import { readFrameHeader, temporalLayer } from './vp8.ts';

export const CLIPS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../clips');

export interface VideoFrame {
  data: Uint8Array;
  key: boolean;
  tid: number;
  /** Frames since the last key frame (the temporal pattern's position). */
  sinceKey: number;
}

export interface VideoClip {
  frames: VideoFrame[];
  width: number;
  height: number;
}

/** Simulcast layers as the web app names them (rid), lowest first as Janus numbers substreams. */
export const RIDS = ['l', 'm', 'h'] as const;
export type Rid = (typeof RIDS)[number];

/** A clip's frames with their temporal layers; the first frame must be a key frame (a loop restarts there). */
export function videoClip(frames: Uint8Array[]): VideoClip {
  let lastKey = 0;
  const first = readFrameHeader(frames[0] ?? new Uint8Array());
  if (!first?.key) throw new Error('a loop starts with a key frame');
  const out = frames.map((data, n) => {
    const key = readFrameHeader(data)?.key ?? false;
    if (key) lastKey = n;
    return { data, key, tid: key ? 0 : temporalLayer(n, lastKey), sinceKey: n - lastKey };
  });
  return { frames: out, width: first.width!, height: first.height! };
}

/** The index of the first key frame at or after `n`, going round the loop. */
export function nextKeyFrame(clip: VideoClip, n: number): number {
  const len = clip.frames.length;
  for (let i = 0; i < len; i++) if (clip.frames[(n + i) % len]!.key) return (n + i) % len;
  return 0;
}

export interface Clips {
  video: Record<Rid, VideoClip>;
  /** A screen share: one layer, full size, SCREEN_FPS frames/s. */
  screen: VideoClip;
  opus: Uint8Array[];
}

/** The screen clip's frame rate (the web app's default SCREEN_SHARE_FPS). */
export const SCREEN_FPS = 5;

let loaded: Clips | null = null;

/** The committed clips, read once per process. */
export function loadClips(dir = CLIPS_DIR): Clips {
  if (loaded && dir === CLIPS_DIR) return loaded;
  const read = (f: string) => new Uint8Array(fs.readFileSync(path.join(dir, f)));
  const clips: Clips = {
    video: { l: videoClip(readIvf(read('l.ivf'))), m: videoClip(readIvf(read('m.ivf'))), h: videoClip(readIvf(read('h.ivf'))) },
    screen: videoClip(readIvf(read('s.ivf'))),
    opus: readOggOpus(read('voice.opus')),
  };
  // The pacer sends one Opus packet every 20 ms: the clip must hold nothing else.
  if (clips.opus.some((p) => opusPacketMs(p) !== 20)) throw new Error('voice.opus must hold one 20 ms frame a packet');
  if (dir === CLIPS_DIR) loaded = clips;
  return clips;
}
