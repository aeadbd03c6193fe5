import { describe, expect, it } from 'vitest';
import { loadClips, nextKeyFrame, RIDS, videoClip } from './clips.ts';
import { opusPacketMs, readIvf, readOggOpus } from './containers.ts';

describe('the committed clips', () => {
  const clips = loadClips();

  it('holds one VP8 loop per simulcast layer at its size, starting with a key frame, key frames every 60 frames', () => {
    const sizes = RIDS.map((rid) => [rid, clips.video[rid].width, clips.video[rid].height, clips.video[rid].frames.length]);
    expect(sizes).toEqual([
      ['l', 320, 180, 240],
      ['m', 640, 360, 240],
      ['h', 1280, 720, 240],
    ]);
    for (const rid of RIDS) {
      const keys = clips.video[rid].frames.flatMap((f, n) => (f.key ? [n] : []));
      expect(keys).toEqual([0, 60, 120, 180]);
      expect(clips.video[rid].frames.slice(0, 8).map((f) => f.tid)).toEqual([0, 2, 1, 2, 0, 2, 1, 2]);
    }
  });

  it('holds a screen share loop: one full-size layer at 5 frames/s, a key frame every 20 frames', () => {
    expect([clips.screen.width, clips.screen.height, clips.screen.frames.length]).toEqual([1280, 720, 40]);
    expect(clips.screen.frames.flatMap((f, n) => (f.key ? [n] : []))).toEqual([0, 20]);
  });

  it('has TL0 frames larger than TL2 frames on average (the temporal layering is real)', () => {
    const frames = clips.video.h.frames.filter((f) => !f.key);
    const mean = (tid: number) => {
      const of = frames.filter((f) => f.tid === tid);
      return of.reduce((a, f) => a + f.data.length, 0) / of.length;
    };
    expect(mean(0)).toBeGreaterThan(mean(2));
  });

  it('holds 8 s of Opus, one 20 ms frame a packet (the pacer sends one every 20 ms)', () => {
    // 400 and the encoder's pre-skip.
    expect(clips.opus.length).toBeGreaterThanOrEqual(400);
    expect(clips.opus.length).toBeLessThanOrEqual(402);
    expect(new Set(clips.opus.map(opusPacketMs))).toEqual(new Set([20]));
  });

  it('finds the next key frame going round the loop', () => {
    expect(nextKeyFrame(clips.video.l, 0)).toBe(0);
    expect(nextKeyFrame(clips.video.l, 1)).toBe(60);
    expect(nextKeyFrame(clips.video.l, 181)).toBe(0);
  });
});

describe('containers', () => {
  it('refuse files that are not IVF or Ogg Opus, and a loop that does not start with a key frame', () => {
    expect(() => readIvf(new Uint8Array(40))).toThrow('not an IVF file');
    expect(() => readOggOpus(new Uint8Array(40))).toThrow('not an Ogg page');
    expect(() => videoClip([new Uint8Array([0x31, 0, 0])])).toThrow('a loop starts with a key frame');
  });

  it('reads an Opus packet duration from its TOC byte', () => {
    expect(opusPacketMs(new Uint8Array([(1 << 3) | 0]))).toBe(20); // SILK NB 20 ms
    expect(opusPacketMs(new Uint8Array([(13 << 3) | 0]))).toBe(20); // hybrid FB 20 ms
    expect(opusPacketMs(new Uint8Array([(31 << 3) | 0]))).toBe(20); // CELT FB 20 ms
    expect(opusPacketMs(new Uint8Array([(16 << 3) | 0]))).toBe(2.5);
    expect(opusPacketMs(new Uint8Array([(1 << 3) | 1]))).toBeNull(); // two frames: not what the pacer sends
  });
});
