import type { GetTokenData, InvitedParticipant } from '@videomote/contract/media';
import { PRESENTER_ROLES } from '@videomote/contract/participant-roles';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config.ts';
import type { PinCrypto } from '../../platform/crypto.ts';
import type { Db, Queryable } from '../../platform/db.ts';
import { forbidden, notFound, validationError } from '../../platform/errors.ts';
import type { Holder } from '../../platform/media-holds.ts';
import type { SessionUser } from '../../platform/session.ts';
import type { MeetingErrorRecorder } from '../admin/meeting-errors.ts';
import { recordConsent, requireConsent } from '../lobby/lobby.service.ts';
import { findMeeting, listMembers, membershipOf, type MemberRecord, type Membership } from '../meetings/meeting-membership.ts';
import { capabilitiesFor } from './capabilities.ts';
import type { MediaKeys } from './media-keys.ts';
import { errorText, type MediaRooms } from './media-rooms.ts';
import { signMediaToken, verifyMediaToken, type MediaTokenClaims } from './media-token.ts';
import type { RoomRecord } from './media.repository.ts';
import { iceServersFor, turnExpiry, turnUser } from './turn-credentials.ts';

/** How long a media token from gettoken opens `/media`. */
const TOKEN_HOURS = 12;
/** How long gettoken waits for the meeting's room: a slow or broken Janus must not hold up the meeting page. */
const ROOM_WAIT_MS = 5_000;

/** The meeting's participants and a webcast's visitors; nobody else (404 when no such meeting, else 403). */
export async function admit(db: Queryable, user: SessionUser, meetingId: string): Promise<Membership> {
  const membership = await membershipOf(db, meetingId, user);
  if (membership) return membership;
  if (!(await findMeeting(db, meetingId))) throw notFound('Mötet hittades inte');
  throw forbidden('Du är inte deltagare i det här mötet');
}

/**
 * SECURITY: a visitor's media name is the one checked when they entered the webcast (at most 12 characters, kept
 * in their session), never one the browser chooses now: others see it on the stage and in the participant list.
 */
export function mediaDisplayName(membership: Membership, user: Pick<SessionUser, 'firstName' | 'lastName'>): string {
  if (membership.kind === 'participant') return membership.participant.displayName;
  const name = `${user.firstName} ${user.lastName}`.trim();
  if (!name) throw validationError([{ fields: ['displayName'], message: 'Fältet är ej korrekt ifyllt' }]);
  return name;
}

/** The booked participant behind a membership (null: a webcast visitor). */
export function participantIdOf(membership: Membership): string | null {
  return membership.kind === 'participant' ? membership.participant.id : null;
}

/**
 * Whether a connection admitted as `participantId` is still that person's: the booking still holds them as the same
 * participant (null membership: removed, or the meeting is gone). Checked before a new media key is handed on.
 */
export function stillAdmitted(membership: Membership | null, participantId: string | null): boolean {
  return membership !== null && participantIdOf(membership) === participantId;
}

/** The invitees gettoken lists: a webcast visitor learns who presents (and moderates), not who else was invited. */
export function visibleInvitees(members: MemberRecord[], membership: Membership): InvitedParticipant[] {
  const me = participantIdOf(membership);
  const visible = membership.kind === 'visitor' ? members.filter((m) => PRESENTER_ROLES.includes(m.role) || m.isAdmin) : members;
  return visible
    .filter((m) => m.isParticipant)
    .map((m) => ({ id: m.id, displayName: m.displayName, role: m.role, moderator: m.isAdmin, currentUser: m.id === me }));
}

/**
 * Whether a `/media` upgrade's token opens this socket: issued for this meeting and this user, and of the socket's
 * kind. SECURITY: a connection check's token (no consent needed) never opens the call, nor a call's token a check.
 */
export function socketTokenRefusal(claims: MediaTokenClaims | null, meetingId: string, subject: string, check: boolean): string | null {
  if (!claims || claims.m !== meetingId || claims.sub !== subject) return 'Ogiltig mediabiljett';
  if ((claims.k === 'check') !== check) return 'Ogiltig mediabiljett';
  return null;
}

/** An admitted `/media` upgrade, as the routes hand it to connect. */
export interface MediaAdmission {
  membership: Membership;
  claims: MediaTokenClaims;
  user: SessionUser;
  sessionToken: string;
  /** Who holds the socket across meetings (person, session, address), and its socket hold (media-socket-holds.ts). */
  holder?: Holder;
  holdId?: string;
}

export interface AdmissionsDeps {
  config: Config;
  db: Db;
  pins: PinCrypto;
  now: () => Date;
  rooms: MediaRooms;
  keys: MediaKeys;
  log: FastifyBaseLogger;
  recordError: MeetingErrorRecorder;
}

/** Who is let into a meeting's media, and what they get: gettoken's answer, and the check of a `/media` upgrade. */
export class Admissions {
  constructor(private readonly deps: AdmissionsDeps) {}

  /** `requestedName` is not used: the media name is always the checked one of the booking or the visitor's session. */
  async token(user: SessionUser, meetingId: string, consent: boolean): Promise<GetTokenData> {
    const { db, now, pins, config, rooms, log } = this.deps;
    const membership = await admit(db, user, meetingId);
    const displayName = mediaDisplayName(membership, user);
    if (consent) await recordConsent(db, membership, now());
    else await requireConsent(db, membership);
    const claims: MediaTokenClaims = { m: membership.meeting.id, sub: user.subject, n: displayName, exp: now().getTime() + TOKEN_HOURS * 3600_000 };
    let room: RoomRecord | null = null;
    try {
      room = await Promise.race([
        rooms.ensure(membership.meeting),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('media room not ready within 5 s')), ROOM_WAIT_MS).unref()),
      ]);
    } catch (err) {
      // The meeting pages work without media; /media retries the room when the browser connects.
      log.warn({ err, meetingId }, 'media room not ready at token time');
      this.deps.recordError(membership.meeting.id, 'media', 'room-not-ready', `Mediarummet var inte klart: ${errorText(err)}`);
    }
    const participants = visibleInvitees(await listMembers(db, membership.meeting.id), membership);
    return {
      tokenData: { token: signMediaToken(pins, claims), apiKey: 'janus', sessionId: room ? String(room.janusRoomId) : '' },
      meeting: { type: membership.meeting.type, id: membership.meeting.id, roomId: membership.meeting.roomId, participants },
      capabilities: capabilitiesFor(membership, user.features),
      // TURN's user: the participant, or one name per visitor session (turnUser); short-lived, renewed on /media.
      iceServers: iceServersFor(config, turnUser(participantIdOf(membership), user.subject), turnExpiry(now().getTime(), config.turnTtlMs)),
      // Only here and on the member's own /media socket; see MediaKeys.
      mediaKey: await this.deps.keys.handTo(membership, user),
    };
  }

  /** Checks a `/media` upgrade: the cookie's user, a valid token for this meeting and user, and membership. */
  async socket(session: { user: SessionUser; token: string } | null, meetingId: string, token: string | undefined, check: boolean): Promise<MediaAdmission> {
    if (!session) throw forbidden('Du är inte inloggad');
    const { user } = session;
    const claims = token ? verifyMediaToken(this.deps.pins, token, this.deps.now()) : null;
    const refusal = socketTokenRefusal(claims, meetingId, user.subject, check);
    if (refusal) throw forbidden(refusal);
    const membership = await admit(this.deps.db, user, meetingId);
    return { membership, claims: claims!, user, sessionToken: session.token };
  }
}
