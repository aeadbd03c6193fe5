import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pinCrypto, randomBytesPooled } from './crypto.ts';

describe('randomBytesPooled', () => {
  it('hands out fresh bytes of the asked size, across refills of its buffer, never the same twice', () => {
    const seen = new Set<string>();
    // 12-byte IVs through more than ten 4 KiB refills.
    for (let i = 0; i < 4000; i++) {
      const iv = randomBytesPooled(12);
      expect(iv).toHaveLength(12);
      seen.add(iv.toString('hex'));
    }
    expect(seen.size).toBe(4000);
    expect(randomBytesPooled(18)).toHaveLength(18);
    expect(randomBytesPooled(10_000)).toHaveLength(10_000);
  });

  it('returns copies: changing one value changes no other', () => {
    const a = randomBytesPooled(16);
    const b = randomBytesPooled(16);
    const before = b.toString('hex');
    a.fill(0);
    expect(b.toString('hex')).toBe(before);
  });

  it('gives each personnummer encryption its own IV, and decrypts what it encrypted', () => {
    const pins = pinCrypto(crypto.randomBytes(32));
    const one = pins.encrypt('19900101-2385');
    const two = pins.encrypt('19900101-2385');
    expect(one).not.toBe(two);
    expect(Buffer.from(one, 'base64').subarray(0, 12).equals(Buffer.from(two, 'base64').subarray(0, 12))).toBe(false);
    expect(pins.decrypt(one)).toBe('19900101-2385');
  });
});
