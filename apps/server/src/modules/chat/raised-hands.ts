import type { Assurance } from '@videomote/contract/chat';
import type { SessionUser } from '../../platform/session.ts';
import type { Membership } from '../meetings/meeting-membership.ts';

/**
 * How a chat member was identified, from the server's own session and the booking only:
 *  - a staff login matched to the booking by agency id: 'staff';
 *  - an e-ID login matched to the booking by the keyed personnummer hash (findMemberForUser): 'eid';
 *  - a webcast visitor who only typed a name, or anything not matched to the booking: 'anonymous'.
 * The browser never gets a say: nothing in a frame reaches this.
 */
export function assuranceOf(user: Pick<SessionUser, 'kind' | 'afId' | 'pinHash'>, membership: Membership): Assurance {
  if (membership.kind !== 'participant') return 'anonymous';
  const { participant } = membership;
  if (user.kind === 'staff' && user.afId && participant.afId === user.afId) return 'staff';
  if (user.kind === 'eid' && user.pinHash) return 'eid';
  return 'anonymous';
}
