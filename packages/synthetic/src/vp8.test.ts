import { describe, expect, it } from 'vitest';
import { DESCRIPTOR_BYTES, packetize, readDescriptor, readFrameHeader, temporalLayer, writeDescriptor } from './vp8.ts';

/** The first 10 bytes of a VP8 key frame of w×h (RFC 6386 §9.1): frame tag (P=0), start code, sizes. */
const keyFrameStart = (w: number, h: number) => new Uint8Array([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, w & 0xff, w >> 8, h & 0xff, h >> 8]);

describe('VP8 payload descriptor', () => {
  it('writes X, I (15-bit picture id), L and T, and reads them back', () => {
    const out = new Uint8Array(DESCRIPTOR_BYTES);
    writeDescriptor(out, { start: true, pictureId: 0x1234, tl0PicIdx: 200, tid: 2, layerSync: true });
    expect([...out]).toEqual([0x90, 0xe0, 0x92, 0x34, 200, 0xa0]);
    expect(readDescriptor(out)).toEqual({ start: true, pictureId: 0x1234, tl0PicIdx: 200, tid: 2, layerSync: true, length: 6 });
  });

  it('reads a 7-bit picture id, a descriptor without extensions, and refuses one cut short', () => {
    expect(readDescriptor(new Uint8Array([0x90, 0x80, 0x05]))).toMatchObject({ start: true, pictureId: 5, tl0PicIdx: -1, tid: 0, length: 3 });
    expect(readDescriptor(new Uint8Array([0x10]))).toMatchObject({ start: true, pictureId: -1, length: 1 });
    // S set but a partition other than 0: not a frame's start.
    expect(readDescriptor(new Uint8Array([0x11]))?.start).toBe(false);
    expect(readDescriptor(new Uint8Array([0x90, 0xe0, 0x92]))).toBeNull();
  });
});

describe('packetize', () => {
  it('splits a frame into balanced payloads under the size limit, S only on the first, and loses no byte', () => {
    const frame = Uint8Array.from({ length: 2500 }, (_, i) => i & 0xff);
    const payloads = packetize(frame, { pictureId: 7, tl0PicIdx: 3, tid: 1, layerSync: false }, 1000);
    expect(payloads.length).toBe(3);
    for (const p of payloads) expect(p.length).toBeLessThanOrEqual(1000);
    expect(payloads.map((p) => readDescriptor(p)!.start)).toEqual([true, false, false]);
    expect(payloads.every((p) => readDescriptor(p)!.pictureId === 7 && readDescriptor(p)!.tid === 1)).toBe(true);
    const joined = Buffer.concat(payloads.map((p) => p.subarray(DESCRIPTOR_BYTES)));
    expect(Buffer.compare(joined, frame)).toBe(0);
  });

  it('sends a tiny frame in one packet', () => {
    expect(packetize(new Uint8Array(3), { pictureId: 0, tl0PicIdx: 0, tid: 0, layerSync: false }).length).toBe(1);
  });
});

describe('the clear VP8 header', () => {
  it('tells a key frame and its size from its first 10 bytes, followed by ciphertext', () => {
    const sealed = new Uint8Array([...keyFrameStart(640, 360), 0xde, 0xad, 0xbe, 0xef]);
    expect(readFrameHeader(sealed)).toEqual({ key: true, width: 640, height: 360 });
  });

  it('tells a delta frame from its 3-byte frame tag', () => {
    expect(readFrameHeader(new Uint8Array([0x31, 0x02, 0x00, 0x55]))).toEqual({ key: false });
  });

  it('refuses what is not a frame start: too short, or a key frame without the start code', () => {
    expect(readFrameHeader(new Uint8Array([0x30, 0x01]))).toBeNull();
    const bad = keyFrameStart(320, 180);
    bad[4] = 0;
    expect(readFrameHeader(bad)).toBeNull();
  });
});

describe('temporalLayer', () => {
  it('follows libvpx 3-layer pattern 0,2,1,2 from the last key frame', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((n) => temporalLayer(n, 0))).toEqual([0, 2, 1, 2, 0, 2, 1, 2]);
    expect([60, 61, 62, 63].map((n) => temporalLayer(n, 60))).toEqual([0, 2, 1, 2]);
  });
});
