import { describe, expect, it } from 'vitest';
import { isFreeze, StreamCounter } from './stream-counter.ts';
import { packetize } from './vp8.ts';
import { readRtp, writeRtp } from './rtp.ts';

const keyFrame = (w: number, h: number) => new Uint8Array([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, w & 0xff, w >> 8, h & 0xff, h >> 8, ...new Array(1500).fill(7)]);
const deltaFrame = () => new Uint8Array([0x31, 0x02, 0x00, ...new Array(300).fill(9)]);

/** Sends frames through packetize and writeRtp into a counter, one every `gapMs`, skipping the packets in `drop`. */
function feed(counter: StreamCounter, frames: { data: Uint8Array; tid: number; gapMs?: number }[], drop = new Set<number>()) {
  let seq = 65530;
  let at = 0;
  frames.forEach((f, n) => {
    at += f.gapMs ?? 33;
    const payloads = packetize(f.data, { pictureId: n, tl0PicIdx: 0, tid: f.tid, layerSync: false }, 1000);
    payloads.forEach((p, i) => {
      const s = seq;
      seq = (seq + 1) & 0xffff;
      if (drop.has(s)) return;
      const packet = writeRtp({ payloadType: 96, sequence: s, timestamp: n * 3000, ssrc: 1, marker: i === payloads.length - 1 }, p);
      counter.packet(readRtp(packet)!, at, packet.length);
    });
  });
}

const layerOf = (w: number) => ({ 320: 'l', 640: 'm', 1280: 'h' })[w] ?? '?';

describe('StreamCounter', () => {
  it('counts frames per simulcast layer from the clear key frame size, and per temporal layer', () => {
    const c = new StreamCounter('video', layerOf);
    feed(c, [
      { data: keyFrame(1280, 720), tid: 0 },
      { data: deltaFrame(), tid: 2 },
      { data: deltaFrame(), tid: 1 },
      { data: keyFrame(320, 180), tid: 0 },
      { data: deltaFrame(), tid: 2 },
    ]);
    expect(c.counts).toMatchObject({ frames: 5, keyFrames: 2, framesPerLayer: { h: 3, l: 2 }, framesPerTemporal: { 0: 2, 1: 1, 2: 2 }, width: 320, height: 180, lost: 0 });
  });

  it('counts lost packets across the sequence wrap, and a frame whose first packet is lost is not counted', () => {
    const c = new StreamCounter('video', layerOf);
    // Key frame: packets 65530, 65531; deltas 65532, 65533, 65534, 65535, 0.
    feed(c, [{ data: keyFrame(640, 360), tid: 0 }, ...Array.from({ length: 5 }, () => ({ data: deltaFrame(), tid: 2 }))], new Set([65535]));
    expect(c.counts.lost).toBe(1);
    expect(c.counts.frames).toBe(5);
  });

  it('counts a freeze when frames stop for longer than three times their usual gap', () => {
    const c = new StreamCounter('video', layerOf);
    const frames: { data: Uint8Array; tid: number; gapMs?: number }[] = [{ data: keyFrame(640, 360), tid: 0 }, ...Array.from({ length: 10 }, () => ({ data: deltaFrame(), tid: 2 }))];
    frames.push({ data: deltaFrame(), tid: 2, gapMs: 600 }, { data: deltaFrame(), tid: 2 });
    feed(c, frames);
    expect(c.counts.freezes).toBe(1);
    expect(c.counts.freezeMs).toBe(600);
  });

  it('isFreeze: over max(3 × mean, mean + 150 ms)', () => {
    expect(isFreeze(180, 33)).toBe(false);
    expect(isFreeze(190, 33)).toBe(true);
    expect(isFreeze(390, 133)).toBe(false);
    expect(isFreeze(400, 133)).toBe(true);
  });
});
