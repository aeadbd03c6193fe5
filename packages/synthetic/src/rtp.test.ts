import { describe, expect, it } from 'vitest';
import { isRtcp, keyFrameRequests, readRtp, seqDelta, writeRtp } from './rtp.ts';

describe('RTP', () => {
  it('writes a packet with one-byte extensions (mid, rid) that reads back the same', () => {
    const payload = new Uint8Array([1, 2, 3, 4, 5]);
    const packet = writeRtp(
      { payloadType: 96, sequence: 65535, timestamp: 0xfffffff0, ssrc: 0x12345678, marker: true, extensions: [{ id: 4, data: Buffer.from('1') }, { id: 10, data: Buffer.from('h') }] },
      payload,
    );
    // Header 12, extension header 4, two elements of 2 bytes padded to one word.
    expect(packet.length).toBe(12 + 4 + 4 + 5);
    const back = readRtp(packet)!;
    expect(back).toMatchObject({ payloadType: 96, sequence: 65535, timestamp: 0xfffffff0, ssrc: 0x12345678, marker: true });
    expect(back.extensions!.map((e) => [e.id, Buffer.from(e.data).toString()])).toEqual([
      [4, '1'],
      [10, 'h'],
    ]);
    expect([...back.payload]).toEqual([1, 2, 3, 4, 5]);
    expect(isRtcp(packet)).toBe(false);
  });

  it('removes padding and refuses what is not RTP version 2', () => {
    const packet = writeRtp({ payloadType: 111, sequence: 1, timestamp: 1, ssrc: 1, marker: false }, new Uint8Array([9, 9, 0, 0, 3]));
    packet[0]! |= 0x20;
    expect([...readRtp(packet)!.payload]).toEqual([9, 9]);
    expect(readRtp(new Uint8Array(12))).toBeNull();
  });

  it('steps sequence numbers across the wrap', () => {
    expect(seqDelta(65535, 0)).toBe(1);
    expect(seqDelta(10, 5)).toBe(-5);
    expect(seqDelta(100, 103)).toBe(3);
  });
});

describe('key frame requests', () => {
  const pli = (media: number) => {
    const b = Buffer.alloc(12);
    b[0] = 0x81;
    b[1] = 206;
    b.writeUInt16BE(2, 2);
    b.writeUInt32BE(1, 4);
    b.writeUInt32BE(media, 8);
    return b;
  };
  const fir = (...media: number[]) => {
    const b = Buffer.alloc(12 + 8 * media.length);
    b[0] = 0x84;
    b[1] = 206;
    b.writeUInt16BE(b.length / 4 - 1, 2);
    b.writeUInt32BE(1, 4);
    media.forEach((m, i) => b.writeUInt32BE(m, 12 + 8 * i));
    return b;
  };
  const receiverReport = () => {
    const b = Buffer.alloc(8);
    b[0] = 0x80;
    b[1] = 201;
    b.writeUInt16BE(1, 2);
    return b;
  };

  it('finds the SSRCs of PLIs and FIRs in a compound packet, and nothing in a report', () => {
    const compound = Buffer.concat([receiverReport(), pli(111), fir(222, 333)]);
    expect(isRtcp(compound)).toBe(true);
    expect(keyFrameRequests(compound)).toEqual([111, 222, 333]);
    expect(keyFrameRequests(receiverReport())).toEqual([]);
  });

  it('stops at a packet whose length runs past the end', () => {
    const cut = pli(5).subarray(0, 10);
    expect(keyFrameRequests(cut)).toEqual([]);
  });
});
