import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pinCrypto } from '../../platform/crypto.ts';
import { signMediaToken, verifyMediaToken } from './media-token.ts';

const pins = pinCrypto(crypto.randomBytes(32));
const now = new Date('2026-11-21T10:00:00Z');
const claims = { m: 'meeting', sub: 'user', n: 'Erik', exp: now.getTime() + 60_000 };

describe('media token', () => {
  it('round-trips and expires', () => {
    const token = signMediaToken(pins, claims);
    expect(verifyMediaToken(pins, token, now)).toEqual(claims);
    expect(verifyMediaToken(pins, token, new Date(now.getTime() + 61_000))).toBeNull();
  });
  it('refuses a tampered payload, a foreign key and garbage', () => {
    const token = signMediaToken(pins, claims);
    const [, sig] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ ...claims, n: 'Anna Admin' })).toString('base64url')}.${sig}`;
    expect(verifyMediaToken(pins, forged, now)).toBeNull();
    expect(verifyMediaToken(pinCrypto(crypto.randomBytes(32)), token, now)).toBeNull();
    for (const bad of ['', 'a.b', 'a.b.c', '.']) expect(verifyMediaToken(pins, bad, now)).toBeNull();
  });
});
