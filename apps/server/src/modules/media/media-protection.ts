import type { MediaConnection } from '@videomote/contract/media';

/**
 * Whether a meeting's media can be end-to-end encrypted now: only while every connection's browser encrypts. One
 * browser without encoded transforms could neither encrypt what it sends nor open what it gets, so while it is in
 * the meeting everyone's media is protected in transit only (DTLS-SRTP to and from Janus), and every screen says so.
 * A connection announced by an older node (no `endToEnd` field) is taken as encrypting, as every browser did then.
 */
export function meetingEndToEnd(connections: Iterable<Partial<Pick<MediaConnection, 'endToEnd'>>>): boolean {
  for (const c of connections) if (c.endToEnd === false) return false;
  return true;
}
