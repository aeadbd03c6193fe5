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

/** What a webcast visitor (or anyone not booked) hears when their browser cannot encrypt end to end. */
export const E2EE_REQUIRED_MESSAGE = 'Din webbläsare kan inte kryptera bild och ljud hela vägen. Använd en aktuell version av Chrome, Edge, Firefox eller Safari.';

/**
 * SECURITY: who may bring a meeting's media down to transit-only protection by connecting without encoded transforms
 * (`e2ee=0`): a booked participant who signed in, whose meeting needs them (a job seeker on an old phone). Never an
 * anonymous webcast visitor: one receive-only visitor would switch every presenter's frames to plain at once.
 */
export function mayLowerProtection(membership: { kind: 'participant' | 'visitor' }, user: { kind: 'staff' | 'eid' | 'anonymous' }): boolean {
  return membership.kind === 'participant' && user.kind !== 'anonymous';
}
