import crypto from 'node:crypto';
import type { PinCrypto } from '../../platform/crypto.ts';

/**
 * The code a sign-up link carries. 128 bits from the operating system's CSPRNG (crypto.randomBytes, not the pooled
 * buffer: the code lives as long as the meeting), URL-safe, 22 characters. The database keeps its SHA-256 (what a
 * link is checked against; a salt adds nothing to 128 random bits) and an encrypted copy for the admin's links page.
 */
export const SIGNUP_CODE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export interface StoredSignupCode {
  hash: string;
  encrypted: string;
}

export const newSignupCode = (): string => crypto.randomBytes(16).toString('base64url');

const digest = (code: string) => crypto.createHash('sha256').update(code, 'utf8').digest();

export const storedSignupCode = (code: string, keys: Pick<PinCrypto, 'encrypt'>): StoredSignupCode => ({
  hash: digest(code).toString('base64url'),
  encrypted: keys.encrypt(code),
});

/**
 * Whether a link's code is the meeting's current one. Fails closed: sign-up off (no stored hash), no code, a code of
 * the wrong shape. The comparison takes the same time wherever the digests differ.
 */
export function signupCodeMatches(storedHash: string | null, given: string | null | undefined): boolean {
  if (!storedHash || typeof given !== 'string' || !SIGNUP_CODE_PATTERN.test(given)) return false;
  const stored = Buffer.from(storedHash, 'base64url');
  const candidate = digest(given);
  return stored.length === candidate.length && crypto.timingSafeEqual(stored, candidate);
}
