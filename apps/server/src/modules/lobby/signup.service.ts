import type { SignupInfo, SignupMeeting } from '@videomote/contract/signup';
import { MAX_MEETING_PARTICIPANTS, MAX_WEBCAST_PRESENTERS, SIGNUP_TEXTS } from '@videomote/contract/signup';
import { PRESENTER_ROLES, type ParticipantRole } from '@videomote/contract/participant-roles';
import type { Db, Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import { AppError, forbidden, validationError } from '../../platform/errors.ts';
import { findMeeting, findMemberForUser, listMembers, meetingFactsJson, signupCodeHashOf, type MeetingSummary } from '../meetings/meeting-membership.ts';
import { signupCodeMatches } from '../meetings/signup-code.ts';
import { countParticipants, insertSelfRegistration, lockMeeting } from '../meetings/self-registration.ts';

export const SIGNUP_ERRORS = {
  meetingNotFound: 'Mötet finns inte. Kontrollera länken.',
  eidRequired: 'Du behöver logga in med e-legitimation för att registrera dig.',
  closed: SIGNUP_TEXTS.closed,
  linkInvalid: SIGNUP_TEXTS.linkInvalid,
  alreadyRegistered: 'Du är redan registrerad till mötet.',
  webcastFull: `Informationsmötet har redan ${MAX_WEBCAST_PRESENTERS} presentatörer, som är det högsta antalet.`,
  meetingFull: `Mötet har redan ${MAX_MEETING_PARTICIPANTS} deltagare, som är det högsta antalet.`,
} as const;

const meetingNotFound = () => new AppError('NotFound', SIGNUP_ERRORS.meetingNotFound, [{ fields: ['meetingId'], message: SIGNUP_ERRORS.meetingNotFound }]);

/**
 * Sign-up off, a wrong code and an old (renewed) code: one answer (403), so that a guess learns nothing about which.
 * `signupCode` is the field: the link is what is wrong, not the meeting.
 */
const linkInvalid = () => new AppError('Forbidden', SIGNUP_ERRORS.linkInvalid, [{ fields: ['signupCode'], message: SIGNUP_ERRORS.linkInvalid }]);

/**
 * The link's code is the meeting's current one: the admin has sign-up on and has not renewed the code since. The
 * meeting id alone proves nothing (it is in every lobby link, and webcast visitors are handed it).
 */
async function requireSignupCode(db: Queryable, meetingId: string, code: string | undefined): Promise<void> {
  if (!signupCodeMatches(await signupCodeHashOf(db, meetingId), code)) throw linkInvalid();
}

/**
 * Open for self-registration (once the link's code is right) = the meeting has not started yet; the e-ID login
 * identifies the person who accepts the invitation.
 */
export const isOpenForSignup = (meeting: MeetingSummary, now: Date) => now.getTime() < meeting.startTime.getTime();

/** A self-registered person presents in a webcast and takes part as an external participant in a meeting. */
export const selfRegistrationRole = (type: 0 | 1): ParticipantRole => (type === 1 ? 'PresenterExternal' : 'ExternalParticipant');

/** The meeting type alone (SignupType): the sign-up page without a code names the meeting by it. */
export async function signupType(db: Queryable, meetingId: string): Promise<{ type: 0 | 1 }> {
  const meeting = await findMeeting(db, meetingId);
  if (!meeting) throw meetingNotFound();
  return { type: meeting.type };
}

/** The sign-up page's facts: for the meeting's own people, or for whoever holds the current sign-up link. */
export async function signupInfo(db: Db, user: SessionUser, meetingId: string, code: string | undefined): Promise<SignupInfo> {
  const meeting = await findMeeting(db, meetingId);
  if (!meeting) throw meetingNotFound();
  const member = await findMemberForUser(db, meeting.id, user);
  if (!member) await requireSignupCode(db, meeting.id, code);
  return {
    id: meeting.id,
    startTime: meeting.startTime.toISOString(),
    endTime: meeting.endTime.toISOString(),
    type: meeting.type,
    selfRegistrations: meeting.selfRegistrations,
    currentUserRegistered: member !== null,
  };
}

export async function addExternalUser(
  db: Db,
  user: SessionUser,
  request: { meetingId: string; signedForm?: boolean; code?: string },
  now: Date,
): Promise<SignupMeeting> {
  // The personnummer is how the person is let into the meeting later, so only an e-ID login can register.
  if (user.kind !== 'eid' || !user.pinHash || !user.pinEncrypted) throw forbidden(SIGNUP_ERRORS.eidRequired);
  if (request.signedForm !== true) throw validationError([{ fields: ['signedForm'], message: SIGNUP_TEXTS.consentRequired }]);

  const meetingId = await db.transaction(async (tx) => {
    const meeting = await findMeeting(tx, request.meetingId);
    if (!meeting || !(await lockMeeting(tx, meeting.id))) throw meetingNotFound();
    // Under the row lock: a renewal or switch-off that committed first wins over a registration in flight.
    await requireSignupCode(tx, meeting.id, request.code);
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
