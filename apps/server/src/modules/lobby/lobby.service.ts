import type { LobbyMeeting } from '@videomote/contract/lobby';
import type { Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { findMeeting, meetingHeadingJson, membershipOf, type Membership } from '../meetings/meeting-membership.ts';
import { deleteConsent, hasConsent, insertConsent } from './lobby.repository.ts';

export const LOBBY_ERRORS = {
  notFound: 'Mötet finns inte',
  notParticipant: 'Du är inte deltagare i det här mötet',
  consentMissing: 'Du behöver intyga att du förstår hanteringen av personuppgifter innan du går in i mötet. Gå tillbaka till mötets förberedelser och kryssa i rutan där.',
} as const;

/** The field the consent refusal names, so the conference can tell it from other refusals and lead to the lobby. */
export const CONSENT_FIELD = 'consent';

/** Only the meeting's participants reach its lobby: unknown meeting 404, somebody else's meeting 403. */
export async function lobbyMeeting(db: Queryable, user: SessionUser, meetingId: string): Promise<LobbyMeeting> {
  return meetingHeadingJson((await participantMembership(db, user, meetingId)).meeting);
}

async function participantMembership(db: Queryable, user: SessionUser, meetingId: string): Promise<Membership> {
  const membership = await membershipOf(db, meetingId, user);
  if (!membership) {
    throw (await findMeeting(db, meetingId)) ? forbidden(LOBBY_ERRORS.notParticipant) : notFound(LOBBY_ERRORS.notFound);
  }
  return membership;
}

/** The lobby's ticked consent box (booking spec §4 lobby), recorded for this participant of this meeting. */
export async function giveConsent(db: Queryable, user: SessionUser, meetingId: string, now: Date): Promise<void> {
  await recordConsent(db, await participantMembership(db, user, meetingId), now);
}

/**
 * The lobby's box unticked again: the consent is withdrawn, so the media token is refused until it is given again
 * (the lobby asks for the token as the box is ticked; see lib/consent-requests.ts in the web app).
 */
export async function withdrawConsent(db: Queryable, user: SessionUser, meetingId: string): Promise<void> {
  const membership = await participantMembership(db, user, meetingId);
  if (membership.kind === 'participant') await deleteConsent(db, meetingId, membership.participant.id);
}

/** The consent of a member already admitted (gettoken with the lobby's box ticked). Visitors give none. */
export async function recordConsent(db: Queryable, membership: Membership, now: Date): Promise<void> {
  if (membership.kind === 'participant') await insertConsent(db, membership.meeting.id, membership.participant.id, now);
}

/**
 * Refuses the media token to a participant who has not given the lobby's consent. A webcast's anonymous visitors
 * do not pass the lobby (public access has its own page), so only booked participants are held to it.
 */
export async function requireConsent(db: Queryable, membership: Membership): Promise<void> {
  if (membership.kind !== 'participant') return;
  if (await hasConsent(db, membership.meeting.id, membership.participant.id)) return;
  throw new AppError('Forbidden', LOBBY_ERRORS.consentMissing, [{ fields: [CONSENT_FIELD], message: LOBBY_ERRORS.consentMissing }]);
}
