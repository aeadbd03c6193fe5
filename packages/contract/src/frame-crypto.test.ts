import { describe, expect, it } from 'vitest';
import { clearByteCount, decryptFrame, encryptFrame, importMediaKey, KeyRing, OLD_EPOCH_GRACE_MS, receiveFrame, TAG_BYTES, TRAILER_BYTES, type EpochKey } from './frame-crypto.ts';

const base64url = (b: Uint8Array) => btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const randomKeyText = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
const epochKey = async (epoch: number, text = randomKeyText()): Promise<EpochKey> => ({ epoch, key: await importMediaKey(text) });
const ringOf = (...keys: EpochKey[]) => {
  const ring = new KeyRing();
  for (const k of keys) ring.add(k);
  return ring;
};

/** A VP8-shaped key frame: 10 header bytes we recognise, then a payload with a phrase we can look for. */
function frame(clear: number, body = 'the quiet brown fox speaks in the meeting'): ArrayBuffer {
  const header = Array.from({ length: clear }, (_, i) => 0xa0 + i);
  return new Uint8Array([...header, ...new TextEncoder().encode(body)]).buffer;
}
const bytes = (b: ArrayBuffer) => [...new Uint8Array(b)];
const contains = (hay: ArrayBuffer, needle: string) => new TextDecoder('latin1').decode(hay).includes(needle);

describe('frame encryption', () => {
  it('keeps the SFU\'s bytes clear: VP8 key 10, delta 3, Opus TOC 1, empty 0', () => {
    expect(clearByteCount('video', 'key')).toBe(10);
    expect(clearByteCount('video', 'delta')).toBe(3);
    expect(clearByteCount('audio')).toBe(1);
    expect(clearByteCount('video', 'empty')).toBe(0);
  });

  it('round-trips every kind of frame, with the header readable on the wire and the payload not', async () => {
    const key = await epochKey(1);
    for (const clear of [10, 3, 1, 0]) {
      const plain = frame(clear);
      const sealed = await encryptFrame(plain, clear, key);
      expect(sealed.byteLength).toBe(plain.byteLength + TAG_BYTES + TRAILER_BYTES);
      expect(bytes(sealed).slice(0, clear)).toEqual(bytes(plain).slice(0, clear));
      expect(contains(sealed, 'quiet brown fox')).toBe(false);
      expect(new Uint8Array(sealed).at(-1)).toBe(1);
      expect(bytes((await decryptFrame(sealed, clear, ringOf(key)))!)).toEqual(bytes(plain));
    }
  });

  it('uses a new IV for every frame: the same frame twice gives two different ciphertexts', async () => {
    const key = await epochKey(1);
    const a = await encryptFrame(frame(3), 3, key);
    const b = await encryptFrame(frame(3), 3, key);
    expect(bytes(a)).not.toEqual(bytes(b));
  });

  it('refuses a frame with any byte changed: header, ciphertext, tag, IV or epoch', async () => {
    const key = await epochKey(7);
    const sealed = await encryptFrame(frame(10), 10, key);
    const n = sealed.byteLength;
    for (const at of [0, 9, 10, 20, n - TRAILER_BYTES - 1, n - TRAILER_BYTES, n - 2, n - 1]) {
      const tampered = new Uint8Array(sealed.slice(0));
      tampered[at]! ^= 0x01;
      expect(await decryptFrame(tampered.buffer, 10, ringOf(key)), `byte ${at}`).toBeNull();
    }
    // Cut short, or read with the wrong header length (another frame type): refused too.
    expect(await decryptFrame(sealed.slice(0, n - 1), 10, ringOf(key))).toBeNull();
    expect(await decryptFrame(sealed.slice(0, 12), 10, ringOf(key))).toBeNull();
    expect(await decryptFrame(sealed, 3, ringOf(key))).toBeNull();
  });

  it('gives nothing to a holder of another key, even under the same epoch', async () => {
    const right = await epochKey(2);
    const wrong = await epochKey(2);
    const sealed = await encryptFrame(frame(10), 10, right);
    expect(await decryptFrame(sealed, 10, ringOf(wrong))).toBeNull();
    expect(await decryptFrame(sealed, 10, new KeyRing())).toBeNull();
  });

  it('after a rotation: old frames still open with the kept key, new ones do not open with the old key alone', async () => {
    const old = await epochKey(1);
    const next = await epochKey(2);
    const ring = ringOf(old, next);
    expect(ring.current?.epoch).toBe(2);
    const before = await encryptFrame(frame(3), 3, old);
    const after = await encryptFrame(frame(3), 3, next);
    expect(await decryptFrame(before, 3, ring)).not.toBeNull();
    expect(await decryptFrame(after, 3, ring)).not.toBeNull();
    // The removed participant kept only the old key.
    expect(await decryptFrame(after, 3, ringOf(old))).toBeNull();
  });

  it('drops a replaced epoch a short, stated time after the next one arrived: the removed one\'s frames stop opening', async () => {
    expect(OLD_EPOCH_GRACE_MS).toBeLessThanOrEqual(30_000);
    let now = 1_000_000;
    const ring = new KeyRing(() => now);
    const [old, next, third] = await Promise.all([1, 2, 3].map((e) => epochKey(e)));
    ring.add(old!);
    // The current key never ages out, however long the meeting lasts.
    now += 3 * 3600_000;
    const stale = await encryptFrame(frame(3), 3, old!);
    expect(await decryptFrame(stale, 3, ring)).not.toBeNull();
    ring.add(next!);
    now += OLD_EPOCH_GRACE_MS - 1;
    expect(await decryptFrame(stale, 3, ring)).not.toBeNull();
    now += 1;
    expect(await decryptFrame(stale, 3, ring)).toBeNull();
    expect(await decryptFrame(await encryptFrame(frame(3), 3, next!), 3, ring)).not.toBeNull();
    // Each replaced key gets its own grace from when it was replaced.
    ring.add(third!);
    now += OLD_EPOCH_GRACE_MS / 2;
    expect(ring.forEpochByte(2)).toBe(next!.key);
    now += OLD_EPOCH_GRACE_MS / 2;
    expect(ring.forEpochByte(2)).toBeNull();
    expect(ring.forEpochByte(3)).toBe(third!.key);
  });

  it('keeps three epochs and never rolls back to an older key', async () => {
    const keys = await Promise.all([1, 2, 3, 4].map((e) => epochKey(e)));
    const ring = ringOf(...keys);
    ring.add(keys[0]!);
    expect(ring.current?.epoch).toBe(4);
    expect(ring.forEpochByte(1)).toBeNull();
    expect(ring.forEpochByte(2)).toBe(keys[1]!.key);
    // Epoch 257 is named by the same byte as 1.
    const wrapped = await epochKey(257);
    ring.add(wrapped);
    expect(ring.forEpochByte(1)).toBe(wrapped.key);
  });

  it('takes a plain frame only while the meeting is transit-only, and still opens sealed ones then', async () => {
    const key = await epochKey(1);
    const plain = frame(10);
    const sealed = await encryptFrame(frame(10), 10, key);
    expect(await receiveFrame(plain, 10, ringOf(key), true)).toBeNull();
    expect(await receiveFrame(plain, 10, ringOf(key), false)).toEqual({ data: plain, opened: 'plain' });
    const opened = await receiveFrame(sealed, 10, ringOf(key), false);
    expect(opened?.opened).toBe('decrypted');
    expect(new Uint8Array(opened!.data)).toEqual(new Uint8Array(frame(10)));
    expect((await receiveFrame(sealed, 10, ringOf(key), true))?.opened).toBe('decrypted');
  });

  it('accepts only a 32-byte key', async () => {
    await expect(importMediaKey(base64url(new Uint8Array(16)))).rejects.toThrow(/32 bytes/);
  });
});
