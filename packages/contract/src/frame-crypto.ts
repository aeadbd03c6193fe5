/**
 * End-to-end encryption of one encoded audio or video frame with the meeting's media key (AES-256-GCM), in the
 * layout of Jitsi's frame encryption (a trailer, not a header), written for our own use:
 *
 *   | clear header (0, 1, 3 or 10 bytes) | ciphertext | GCM tag (16) | IV (12) | key epoch (1) |
 *
 * The header stays readable because the SFU and the receiving depacketizer need it: for VP8 the first 10 bytes of a
 * key frame (frame tag, start code, width and height: RFC 6386 §9.1) and the 3-byte frame tag of a delta frame, so
 * Janus still tells key frames apart (layer switching, keyframe requests); for Opus the TOC byte (RFC 6716 §3.1).
 * The header is the GCM "additional data": it is authenticated, so changing it breaks the frame like changing
 * the ciphertext does. Pure: WebCrypto only. Shared (one implementation): the web E2EE worker and the synthetic participants
 * (packages/synthetic) both import it, so a synthetic frame is sealed exactly as a browser seals it.
 */
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
/** IV and the one-byte key epoch after the ciphertext. */
export const TRAILER_BYTES = IV_BYTES + 1;

export type MediaKind = 'audio' | 'video';

/** How many leading bytes stay clear: VP8 key frame 10, delta 3, Opus 1; an empty frame has nothing to hide. */
export function clearByteCount(kind: MediaKind, frameType?: string): number {
  if (kind === 'audio') return 1;
  if (frameType === 'key') return 10;
  if (frameType === 'delta') return 3;
  return 0;
}

export interface EpochKey {
  epoch: number;
  key: CryptoKey;
}

/** The meeting key (32 bytes, base64url as the server hands it) as a non-extractable AES-GCM key. */
export async function importMediaKey(base64url: string): Promise<CryptoKey> {
  const raw = base64UrlToBytes(base64url);
  if (raw.length !== 32) throw new Error('media key must be 32 bytes');
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/**
 * SECURITY: how long a replaced key still opens frames after the next one arrived. Frames already on their way when
 * the key was replaced (sent, queued, retransmitted) still open; after that, frames under the old key are dropped,
 * so a participant removed from the meeting (who holds only the old key) cannot keep feeding frames to those left.
 */
export const OLD_EPOCH_GRACE_MS = 10_000;

/**
 * The keys a receiver may meet: the current one, and the two before it for OLD_EPOCH_GRACE_MS after each was
 * replaced. Frames name their key by the epoch's low byte.
 */
export class KeyRing {
  private keys: (EpochKey & { replacedAt?: number })[] = [];

  constructor(private readonly now: () => number = () => Date.now()) {}

  get current(): EpochKey | null {
    return this.keys[0] ?? null;
  }

  /** Adds a key; an epoch older than the current one is ignored (a late message must not roll the key back). */
  add(entry: EpochKey): void {
    const current = this.keys[0];
    if (current && entry.epoch < current.epoch) return;
    if (current && current.epoch !== entry.epoch) current.replacedAt = this.now();
    this.keys = [entry, ...this.keys.filter((k) => k.epoch !== entry.epoch)].slice(0, 3);
  }

  forEpochByte(byte: number): CryptoKey | null {
    const now = this.now();
    this.keys = this.keys.filter((k) => k.replacedAt === undefined || now - k.replacedAt < OLD_EPOCH_GRACE_MS);
    return this.keys.find((k) => (k.epoch & 0xff) === byte)?.key ?? null;
  }
}

/** Seals a frame's payload after its clear header. The IV must never repeat under one key: random 96 bits per frame. */
export async function encryptFrame(data: ArrayBuffer, clear: number, key: EpochKey, iv: Uint8Array<ArrayBuffer> = randomIv()): Promise<ArrayBuffer> {
  const bytes = new Uint8Array(data);
  const n = Math.min(clear, bytes.length);
  const header = bytes.subarray(0, n);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: header, tagLength: TAG_BYTES * 8 }, key.key, bytes.subarray(n)));
  const out = new Uint8Array(n + sealed.length + TRAILER_BYTES);
  out.set(header, 0);
  out.set(sealed, n);
  out.set(iv, n + sealed.length);
  out[out.length - 1] = key.epoch & 0xff;
  return out.buffer;
}

/**
 * Opens a frame sealed by encryptFrame. Null when it cannot be opened: too short, an unknown epoch, the wrong key,
 * or any byte changed (header, ciphertext, tag or IV). The caller drops such a frame: nothing unauthenticated
 * reaches the decoder.
 */
export async function decryptFrame(data: ArrayBuffer, clear: number, ring: KeyRing): Promise<ArrayBuffer | null> {
  const bytes = new Uint8Array(data);
  if (bytes.length < clear + TAG_BYTES + TRAILER_BYTES) return null;
  const key = ring.forEpochByte(bytes[bytes.length - 1]!);
  if (!key) return null;
  const ivStart = bytes.length - TRAILER_BYTES;
  const header = bytes.subarray(0, clear);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(ivStart, ivStart + IV_BYTES), additionalData: header, tagLength: TAG_BYTES * 8 },
      key,
      bytes.subarray(clear, ivStart),
    );
  } catch {
    return null;
  }
  const out = new Uint8Array(clear + plain.byteLength);
  out.set(header, 0);
  out.set(new Uint8Array(plain), clear);
  return out.buffer;
}

/**
 * What a receiver makes of a frame: opened with a key of the ring, or, only while the meeting is transit-only
 * (the server said so: a browser without encoded transforms is in it, and every sender sends plain), taken as it
 * came. While the meeting is end-to-end encrypted a frame that does not open is dropped (null): a plain frame
 * slipped in by the media server never reaches the decoder. In transit-only mode frames sealed before the switch
 * still open, so nothing on its way is lost.
 */
export async function receiveFrame(
  data: ArrayBuffer,
  clear: number,
  ring: KeyRing,
  endToEnd: boolean,
): Promise<{ data: ArrayBuffer; opened: 'decrypted' | 'plain' } | null> {
  const plain = await decryptFrame(data, clear, ring);
  if (plain) return { data: plain, opened: 'decrypted' };
  return endToEnd ? null : { data, opened: 'plain' };
}

function randomIv(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(IV_BYTES));
}

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
