import { describe, expect, it } from 'vitest';
import { pinCrypto } from '../../platform/crypto.ts';
import { newSignupCode, SIGNUP_CODE_PATTERN, signupCodeMatches, storedSignupCode } from './signup-code.ts';

const keys = pinCrypto(Buffer.alloc(32, 7));

describe('sign-up codes', () => {
  it('are 128 random bits, URL-safe, and never repeat', () => {
    const codes = new Set(Array.from({ length: 2000 }, newSignupCode));
    expect(codes.size).toBe(2000);
    for (const code of codes) {
      expect(code).toMatch(SIGNUP_CODE_PATTERN);
      expect(Buffer.from(code, 'base64url')).toHaveLength(16);
    }
  });

  it('are stored as a hash to check against and an encrypted copy to show the admin, never as they are', () => {
    const code = newSignupCode();
    const stored = storedSignupCode(code, keys);
    expect(stored.hash).not.toContain(code);
    expect(stored.encrypted).not.toContain(code);
    expect(keys.decrypt(stored.encrypted)).toBe(code);
    expect(storedSignupCode(code, keys).hash).toBe(stored.hash);
  });

  it('match only the current code; sign-up off, a missing, malformed, other or renewed code fail', () => {
    const code = newSignupCode();
    const { hash } = storedSignupCode(code, keys);
    expect(signupCodeMatches(hash, code)).toBe(true);
    expect(signupCodeMatches(null, code)).toBe(false);
    for (const given of [undefined, null, '', code.slice(1), `${code}A`, code.toLowerCase() === code ? code.toUpperCase() : code.toLowerCase(), newSignupCode(), `${code.slice(0, 21)}=`]) {
      expect(signupCodeMatches(hash, given)).toBe(false);
    }
    const renewed = storedSignupCode(newSignupCode(), keys);
    expect(signupCodeMatches(renewed.hash, code)).toBe(false);
    // A stored value of another length (a damaged row) fails closed instead of throwing.
    expect(signupCodeMatches('abc', code)).toBe(false);
  });
});
