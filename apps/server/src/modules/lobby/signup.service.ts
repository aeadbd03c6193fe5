import type { SignupInfo, SignupMeeting } from '@videomote/contract/signup';
import { MAX_MEETING_PARTICIPANTS, MAX_WEBCAST_PRESENTERS, SIGNUP_TEXTS } from '@videomote/contract/signup';
import { PRESENTER_ROLES, type ParticipantRole } from '@videomote/contract/participant-roles';
import type { Db } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import { AppError, forbidden, validationError } from '../../platform/errors.ts';
import { findMeeting, findMemberForUser, listMembers, meetingFactsJson, type MeetingSummary } from '../meetings/meeting-membership.ts';
import { countParticipants, insertSelfRegistration, lockMeeting } from './lobby.repository.ts';

export const SIGNUP_ERRORS = {
  meetingNotFound: 'Mötet finns inte. Kontrollera länken.',
  eidRequired: 'Du behöver logga in med e-legitimation för att registrera dig.',
  closed: SIGNUP_TEXTS.closed,
  alreadyRegistered: 'Du är redan registrerad till mötet.',
  webcastFull: `Informationsmötet har redan ${MAX_WEBCAST_PRESENTERS} presentatörer, som är det högsta antalet.`,
  meetingFull: `Mötet har redan ${MAX_MEETING_PARTICIPANTS} deltagare, som är det högsta antalet.`,
} as const;

const meetingNotFound = () => new AppError('NotFound', SIGNUP_ERRORS.meetingNotFound, [{ fields: ['meetingId'], message: SIGNUP_ERRORS.meetingNotFound }]);

/**
 * Open for self-registration = the meeting has not started yet. The link `/meetings/{id}/signup` that the
 * meeting's admins share is the invitation; the e-ID login identifies the person who accepts it.
 */
export const isOpenForSignup = (meeting: MeetingSummary, now: Date) => now.getTime() < meeting.startTime.getTime();

/** A self-registered person presents in a webcast and takes part as an external participant in a meeting. */
export const selfRegistrationRole = (type: 0 | 1): ParticipantRole => (type === 1 ? 'PresenterExternal' : 'ExternalParticipant');

export async function signupInfo(db: Db, user: SessionUser, meetingId: string): Promise<SignupInfo> {
  const meeting = await findMeeting(db, meetingId);
  if (!meeting) throw meetingNotFound();
  return {
    id: meeting.id,
    startTime: meeting.startTime.toISOString(),
    endTime: meeting.endTime.toISOString(),
    type: meeting.type,
    selfRegistrations: meeting.selfRegistrations,
    currentUserRegistered: (await findMemberForUser(db, meeting.id, user)) !== null,
  };
}

export async function addExternalUser(
  db: Db,
  user: SessionUser,
  request: { meetingId: string; signedForm?: boolean },
  now: Date,
): Promise<SignupMeeting> {
  // The personnummer is how the person is let into the meeting later, so only an e-ID login can register.
  if (user.kind !== 'eid' || !user.pinHash || !user.pinEncrypted) throw forbidden(SIGNUP_ERRORS.eidRequired);
  if (request.signedForm !== true) throw validationError([{ fields: ['signedForm'], message: SIGNUP_TEXTS.consentRequired }]);

  const meetingId = await db.transaction(async (tx) => {
    const meeting = await findMeeting(tx, request.meetingId);
    if (!meeting || !(await lockMeeting(tx, meeting.id))) throw meetingNotFound();
    if (!isOpenForSignup(meeting, now)) {
      throw new AppError('Forbidden', SIGNUP_ERRORS.closed, [{ fields: ['meetingId'], message: SIGNUP_ERRORS.closed }]);
    }
    if (await findMemberForUser(tx, meeting.id, user)) {
      throw new AppError('Conflict', SIGNUP_ERRORS.alreadyRegistered, [{ fields: ['meetingId'], message: SIGNUP_ERRORS.alreadyRegistered }]);
    }
    const full =
      meeting.type === 1
        ? (await countParticipants(tx, meeting.id, PRESENTER_ROLES)) >= MAX_WEBCAST_PRESENTERS && SIGNUP_ERRORS.webcastFull
        : (await countParticipants(tx, meeting.id)) >= MAX_MEETING_PARTICIPANTS && SIGNUP_ERRORS.meetingFull;
    if (full) throw new AppError('Conflict', full, [{ fields: ['meetingId'], message: full }]);
    await insertSelfRegistration(tx, {
      meetingId: meeting.id,
      role: selfRegistrationRole(meeting.type),
      displayName: `${user.firstName} ${user.lastName}`.trim() || 'Deltagare',
      pinHash: user.pinHash!,
      pinEncrypted: user.pinEncrypted!,
    });
    return meeting.id;
  });

  const meeting = (await findMeeting(db, meetingId))!;
  const me = await findMemberForUser(db, meetingId, user);
  const members = await listMembers(db, meetingId);
  return {
    ...meetingFactsJson(meeting),
    participants: members.map((m) => ({
      id: m.id,
      role: m.role,
      displayName: m.displayName,
      isAdmin: m.isAdmin,
      isParticipant: m.isParticipant,
      currentUser: m.id === me?.id,
      meetingId: m.meetingId,
    })),
  };
}
