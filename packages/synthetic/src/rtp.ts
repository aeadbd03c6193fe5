/**
 * RTP and the RTCP feedback a sender must answer (RFC 3550, RFC 4585 PLI, RFC 5104 FIR), with one-byte header
 * extensions (RFC 8285) for the mid and rid a simulcast sender tags its packets with. Pure.
 */

export interface RtpHeader {
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
  marker: boolean;
  /** One-byte extensions: id 1–14, 1–16 bytes each. */
  extensions?: { id: number; data: Uint8Array }[];
}

export function writeRtp(h: RtpHeader, payload: Uint8Array): Buffer {
  const ext = h.extensions ?? [];
  let extBytes = 0;
  for (const e of ext) extBytes += 1 + e.data.length;
  const extWords = Math.ceil(extBytes / 4);
  const headerLen = 12 + (ext.length ? 4 + extWords * 4 : 0);
  const out = Buffer.alloc(headerLen + payload.length);
  out[0] = 0x80 | (ext.length ? 0x10 : 0);
  out[1] = (h.marker ? 0x80 : 0) | (h.payloadType & 0x7f);
  out.writeUInt16BE(h.sequence & 0xffff, 2);
  out.writeUInt32BE(h.timestamp >>> 0, 4);
  out.writeUInt32BE(h.ssrc >>> 0, 8);
  if (ext.length) {
    out.writeUInt16BE(0xbede, 12);
    out.writeUInt16BE(extWords, 14);
    let at = 16;
    for (const e of ext) {
      out[at++] = (e.id << 4) | (e.data.length - 1);
      out.set(e.data, at);
      at += e.data.length;
    }
  }
  out.set(payload, headerLen);
  return out;
}

export interface ParsedRtp extends RtpHeader {
  payload: Uint8Array;
}

/** Parses an RTP packet (padding removed, extensions read when one-byte); null when it is not one. */
export function readRtp(b: Uint8Array): ParsedRtp | null {
  if (b.length < 12 || b[0]! >> 6 !== 2) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const cc = b[0]! & 0x0f;
  let at = 12 + cc * 4;
  const extensions: { id: number; data: Uint8Array }[] = [];
  if (b[0]! & 0x10) {
    if (b.length < at + 4) return null;
    const profile = view.getUint16(at);
    const words = view.getUint16(at + 2);
    const end = at + 4 + words * 4;
    if (b.length < end) return null;
    if (profile === 0xbede) {
      for (let i = at + 4; i < end; ) {
        const id = b[i]! >> 4;
        if (id === 0) {
          i += 1;
          continue;
        }
        if (id === 15) break;
        const len = (b[i]! & 0x0f) + 1;
        extensions.push({ id, data: b.subarray(i + 1, i + 1 + len) });
        i += 1 + len;
      }
    }
    at = end;
  }
  let end = b.length;
  if (b[0]! & 0x20) end -= b[b.length - 1]!;
  if (end < at) return null;
  return {
    payloadType: b[1]! & 0x7f,
    marker: (b[1]! & 0x80) !== 0,
    sequence: view.getUint16(2),
    timestamp: view.getUint32(4),
    ssrc: view.getUint32(8),
    extensions,
    payload: b.subarray(at, end),
  };
}

/** RTCP packet types share the byte RTP uses for marker and payload type: 192–223 (RFC 5761 §4). */
export function isRtcp(b: Uint8Array): boolean {
  return b.length >= 8 && b[1]! >= 192 && b[1]! <= 223;
}

/** The media SSRCs a compound RTCP packet asks key frames of (PLI and FIR). */
export function keyFrameRequests(b: Uint8Array): number[] {
  const out: number[] = [];
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = 0; at + 4 <= b.length; ) {
    const fmt = b[at]! & 0x1f;
    const pt = b[at + 1]!;
    const len = (view.getUint16(at + 2) + 1) * 4;
    if (at + len > b.length) break;
    if (pt === 206 && fmt === 1 && len >= 12) out.push(view.getUint32(at + 8));
    if (pt === 206 && fmt === 4) for (let i = at + 12; i + 8 <= at + len; i += 8) out.push(view.getUint32(i));
    at += len;
  }
  return out;
}

/** Sequence-number distance from `a` to `b` modulo 2^16, as a signed step (b − a in −32768..32767). */
export function seqDelta(a: number, b: number): number {
  return ((((b - a) & 0xffff) + 0x8000) & 0xffff) - 0x8000;
}
