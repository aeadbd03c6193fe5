import crypto from 'node:crypto';

/**
 * TURN for browsers behind networks that let no UDP through: coturn with `use-auth-secret`, and credentials in its
 * REST form made here, per participant and short-lived. No static TURN password ever reaches a browser: a leaked
 * credential opens the relay to one name until the meeting is over, and coturn checks it without asking us.
 */
export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/** How long after the meeting's end its credentials still work: a meeting that runs over keeps its media. */
export const TURN_MARGIN_MS = 60 * 60_000;

/**
 * coturn's REST credentials: username `expiry:user` (expiry in Unix seconds), password base64(HMAC-SHA1(secret,
 * username)). coturn refuses them once the expiry has passed.
 */
export function turnCredentials(secret: string, user: string, expiresAtMs: number): { username: string; credential: string } {
  const username = `${Math.floor(expiresAtMs / 1000)}:${user}`;
  return { username, credential: crypto.createHmac('sha1', secret).update(username).digest('base64') };
}

/** Credentials last until the meeting's end plus the margin (from now, for a meeting already over). */
export function turnExpiry(meetingEnd: Date, now: Date): number {
  return Math.max(meetingEnd.getTime(), now.getTime()) + TURN_MARGIN_MS;
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
