import crypto from 'node:crypto';
import type { PinCrypto } from '../../platform/crypto.ts';

/**
 * The media token of `gettoken` (spec §7 tokenData.token): proof that the server admitted this user to this
 * meeting's media session under this display name. `/media` accepts it only together with the same user's
 * session cookie, so a leaked token alone opens nothing.
 */
export interface MediaTokenClaims {
  /** Meeting id. */
  m: string;
  /** The session user's subject. */
  sub: string;
  /** Display name to publish under. */
  n: string;
  /** Expiry, ms since epoch. */
  exp: number;
  /**
   * `check`: the lobby's connection check. Such a token opens `/media` only for the test connection to Janus's echo
   * plugin, and an ordinary one never opens that: the check needs no consent, the call does.
   */
  k?: 'check';
}

// The keyed hash of platform/crypto (its key lives in DATA_DIR or PIN_KEY), domain-separated by a prefix.
const mac = (pins: PinCrypto, payload: string) => pins.hash(`videomote-media-token:${payload}`);

export function signMediaToken(pins: PinCrypto, claims: MediaTokenClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(pins, payload)}`;
}

export function verifyMediaToken(pins: PinCrypto, token: string, now: Date): MediaTokenClaims | null {
  if (typeof token !== 'string' || token.length > 2048) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(pins, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as MediaTokenClaims;
    if (typeof claims.m !== 'string' || typeof claims.sub !== 'string' || typeof claims.n !== 'string' || typeof claims.exp !== 'number') return null;
    if (claims.k !== undefined && claims.k !== 'check') return null;
    return claims.exp > now.getTime() ? claims : null;
  } catch {
    return null;
  }
}
