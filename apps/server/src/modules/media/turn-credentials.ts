import crypto from 'node:crypto';
import { DEFAULT_TURN_TTL_SECONDS } from '../../platform/config.ts';

/**
 * TURN for browsers behind networks that let no UDP through: coturn with `use-auth-secret`, and credentials in its
 * REST form made here, per person and short-lived (TURN_CALL_TTL_MS). No static TURN password ever reaches a browser:
 * a leaked credential opens the relay to one name for at most that time, and coturn checks it without asking us.
 */
export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/**
 * SECURITY: how long TURN credentials last, whatever the meeting's date (a booking has no upper date, so a lifetime
 * tied to the meeting's end let someone who booked a meeting years ahead hold a relay login for years). A call's
 * credentials are renewed over its `/media` socket while the person is connected (MediaService.renewTurn), so only
 * a connected member keeps TURN; one removed or logged out loses it within this time. The lobby's connection check
 * needs its minutes only.
 */
export const TURN_CALL_TTL_MS = DEFAULT_TURN_TTL_SECONDS * 1000;
export const TURN_CHECK_TTL_MS = 10 * 60_000;
/**
 * coturn's REST credentials: username `expiry:user` (expiry in Unix seconds), password base64(HMAC-SHA1(secret,
 * username)). coturn refuses them once the expiry has passed.
 */
export function turnCredentials(secret: string, user: string, expiresAtMs: number): { username: string; credential: string } {
  const username = `${Math.floor(expiresAtMs / 1000)}:${user}`;
  return { username, credential: crypto.createHmac('sha1', secret).update(username).digest('base64') };
}

/**
 * The expiry of credentials made at `nowMs`: the end of the half-lifetime step after the current one. Every request
 * within one step gets the same expiry, hence the same coturn username (coturn's quotas are per username), and a
 * credential stays valid for at least half and at most all of `ttlMs`.
 */
export function turnExpiry(nowMs: number, ttlMs: number): number {
  const step = ttlMs / 2;
  return (Math.floor(nowMs / step) + 2) * step;
}

/**
 * TURN's user for a person: the booked participant, or for a webcast visitor a name derived from their visitor
 * session (one name per session however many tokens it asks for, so one link cannot fill coturn's total quota
 * with fresh names), hashed so that coturn's log does not carry the session's subject.
 */
export function turnUser(participantId: string | null, subject: string): string {
  return participantId ?? `visitor-${crypto.createHash('sha256').update(subject).digest('base64url').slice(0, 16)}`;
}
/**
 * What one browser may use for ICE: the configured servers that need no password (STUN, or TURN open to all) and,
 * when TURN is configured, the TURN servers with this participant's own credentials. A configured server that
 * carries a static password is never passed on.
 */
export function iceServersFor(
  config: { iceServers: IceServer[]; turnUrls: string[]; turnSecret: string | null },
  user: string,
  expiresAtMs: number,
): IceServer[] {
  const open = config.iceServers.filter((s) => !s.credential).map((s) => ({ urls: s.urls }));
  if (!config.turnUrls.length || !config.turnSecret) return open;
  return [...open, { urls: config.turnUrls, ...turnCredentials(config.turnSecret, user, expiresAtMs) }];
}
