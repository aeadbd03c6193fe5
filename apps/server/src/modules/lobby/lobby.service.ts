import type { LobbyMeeting } from '@videomote/contract/lobby';
import type { Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { findMeeting, meetingHeadingJson, membershipOf } from '../meetings/meeting-membership.ts';

export const LOBBY_ERRORS = {
  notFound: 'Mötet finns inte',
  notParticipant: 'Du är inte deltagare i det här mötet',
} as const;

/** Only the meeting's participants reach its lobby: unknown meeting 404, somebody else's meeting 403. */
export async function lobbyMeeting(db: Queryable, user: SessionUser, meetingId: string): Promise<LobbyMeeting> {
  const membership = await membershipOf(db, meetingId, user);
  if (!membership) {
    throw (await findMeeting(db, meetingId)) ? forbidden(LOBBY_ERRORS.notParticipant) : notFound(LOBBY_ERRORS.notFound);
  }
  return meetingHeadingJson(membership.meeting);
}
