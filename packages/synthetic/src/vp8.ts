/**
 * VP8 over RTP (RFC 7741), the little a load generator and a counting viewer need: the payload descriptor with
 * PictureID, TL0PICIDX and TID (what lets Janus switch temporal layers), a packetizer, and a reader of what stays in
 * clear in an end-to-end encrypted frame (the frame tag and, for key frames, the size: see frame-crypto.ts). Pure.
 */

/** What the descriptor says about one packet's frame. */
export interface Vp8Descriptor {
  /** First packet of the frame (S with partition index 0). */
  start: boolean;
  /** 15-bit picture id (7-bit ids are read as they are). */
  pictureId: number;
  tl0PicIdx: number;
  /** Temporal layer 0–2. */
  tid: number;
  /** Layer sync: the frame depends only on TL0 frames (Y bit). */
  layerSync: boolean;
}

/** Length of the descriptor this module writes: X, I (M, 15-bit), L, T. */
export const DESCRIPTOR_BYTES = 6;

/** Writes the descriptor (RFC 7741 §4.2) for one packet into `out` at 0; answers its length. */
export function writeDescriptor(out: Uint8Array, d: Vp8Descriptor): number {
  out[0] = 0x80 | (d.start ? 0x10 : 0); // X, S; N=0, PID=0
  out[1] = 0x80 | 0x40 | 0x20; // I, L, T (K=0)
  out[2] = 0x80 | ((d.pictureId >> 8) & 0x7f); // M: 15-bit picture id
  out[3] = d.pictureId & 0xff;
  out[4] = d.tl0PicIdx & 0xff;
  out[5] = ((d.tid & 0x03) << 6) | (d.layerSync ? 0x20 : 0);
  return DESCRIPTOR_BYTES;
}

/** Reads a descriptor (any mix of the optional fields); null when the payload is too short for what it claims. */
export function readDescriptor(p: Uint8Array): (Vp8Descriptor & { length: number }) | null {
  if (p.length < 1) return null;
  const x = (p[0]! & 0x80) !== 0;
  const s = (p[0]! & 0x10) !== 0;
  const pid = p[0]! & 0x07;
  let i = 1;
  let pictureId = -1;
  let tl0PicIdx = -1;
  let tid = 0;
  let layerSync = false;
  if (x) {
    if (p.length < 2) return null;
    const flags = p[1]!;
    i = 2;
    if (flags & 0x80) {
      if (p.length < i + 1) return null;
      if (p[i]! & 0x80) {
        if (p.length < i + 2) return null;
        pictureId = ((p[i]! & 0x7f) << 8) | p[i + 1]!;
        i += 2;
      } else {
        pictureId = p[i]! & 0x7f;
        i += 1;
      }
    }
    if (flags & 0x40) {
      if (p.length < i + 1) return null;
      tl0PicIdx = p[i]!;
      i += 1;
    }
    if (flags & 0x30) {
      if (p.length < i + 1) return null;
      if (flags & 0x20) {
        tid = (p[i]! >> 6) & 0x03;
        layerSync = (p[i]! & 0x20) !== 0;
      }
      i += 1;
    }
  }
  return { start: s && pid === 0, pictureId, tl0PicIdx, tid, layerSync, length: i };
}

/**
 * Splits one (encrypted) frame into RTP payloads of at most `maxPayload` bytes, each with its descriptor; only the
 * first has S set. Sizes are balanced, as libwebrtc does, so no packet is a runt.
 */
export function packetize(frame: Uint8Array, d: Omit<Vp8Descriptor, 'start'>, maxPayload = 1_100): Uint8Array[] {
  const room = maxPayload - DESCRIPTOR_BYTES;
  const count = Math.max(1, Math.ceil(frame.length / room));
  const size = Math.ceil(frame.length / count);
  const out: Uint8Array[] = [];
  for (let k = 0, at = 0; k < count; k++, at += size) {
    const part = frame.subarray(at, Math.min(frame.length, at + size));
    const p = new Uint8Array(DESCRIPTOR_BYTES + part.length);
    writeDescriptor(p, { ...d, start: k === 0 });
    p.set(part, DESCRIPTOR_BYTES);
    out.push(p);
  }
  return out;
}

/** What the clear start of a VP8 frame tells (RFC 6386 §9.1): key or delta, and a key frame's size. */
export interface Vp8FrameHeader {
  key: boolean;
  width?: number;
  height?: number;
}

/**
 * Reads the frame tag (and a key frame's start code and size) from the first bytes of a frame: the bytes the
 * product leaves in clear (10 of a key frame, 3 of a delta frame). Null when they are not a VP8 frame start.
 */
export function readFrameHeader(b: Uint8Array): Vp8FrameHeader | null {
  if (b.length < 3) return null;
  const key = (b[0]! & 0x01) === 0;
  if (!key) return { key };
  if (b.length < 10 || b[3] !== 0x9d || b[4] !== 0x01 || b[5] !== 0x2a) return null;
  return { key, width: (b[6]! | (b[7]! << 8)) & 0x3fff, height: (b[8]! | (b[9]! << 8)) & 0x3fff };
}

/** The temporal layer of frame `n` of a clip made with libvpx's 3-layer pattern 0,2,1,2 restarted at key frames. */
export function temporalLayer(n: number, lastKey: number): number {
  return [0, 2, 1, 2][(n - lastKey) % 4]!;
}
