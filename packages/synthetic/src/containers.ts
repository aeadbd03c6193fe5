/** The two file formats of the committed clips: IVF (VP8 frames) and Ogg (Opus packets). Pure. */

/** The frames of an IVF file, in order. */
export function readIvf(file: Uint8Array): Uint8Array[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.length < 32 || String.fromCharCode(...file.subarray(0, 4)) !== 'DKIF') throw new Error('not an IVF file');
  const frames: Uint8Array[] = [];
  for (let at = view.getUint16(6, true); at + 12 <= file.length; ) {
    const size = view.getUint32(at, true);
    if (at + 12 + size > file.length) throw new Error('truncated IVF frame');
    frames.push(file.subarray(at + 12, at + 12 + size));
    at += 12 + size;
  }
  return frames;
}

/** The Opus packets of an Ogg Opus file, without its two header packets (OpusHead, OpusTags). */
export function readOggOpus(file: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  for (let at = 0; at + 27 <= file.length; ) {
    if (String.fromCharCode(...file.subarray(at, at + 4)) !== 'OggS') throw new Error('not an Ogg page');
    const segments = file[at + 26]!;
    const table = file.subarray(at + 27, at + 27 + segments);
    let body = at + 27 + segments;
    for (const lace of table) {
      pending.push(file.subarray(body, body + lace));
      body += lace;
      if (lace < 255) {
        packets.push(Buffer.concat(pending));
        pending = [];
      }
    }
    at = body;
  }
  const head = packets[0] ? String.fromCharCode(...packets[0].subarray(0, 8)) : '';
  if (head !== 'OpusHead') throw new Error('not an Ogg Opus file');
  return packets.slice(2);
}

/** Duration of an Opus packet from its TOC byte (RFC 6716 §3.1), ms; code 0 (one frame) only, else null. */
export function opusPacketMs(packet: Uint8Array): number | null {
  const toc = packet[0];
  if (toc === undefined || (toc & 0x03) !== 0) return null;
  const config = toc >> 3;
  if (config < 12) return [10, 20, 40, 60][config % 4]!;
  if (config < 16) return [10, 20][config % 2]!;
  return [2.5, 5, 10, 20][config % 4]!;
}
