import type { MeetingFacts, MeetingHeading } from '@videomote/contract/meetings';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import type { Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import type { MeetingRow } from './meetings.repository.ts';

/**
 * Read-only answers other modules (media, chat, lobby, polls) need about a meeting and who is in it.
 * The meetings module owns the tables; this is the one place outside it allowed to read them.
 */
export interface MeetingSummary {
  id: string;
  title: string;
  type: 0 | 1;
  startTime: Date;
  endTime: Date;
  roomId: string;
  version: number;
  selfRegistrations: number;
  countInfoParticipants: number;
}

export interface MemberRecord {
  id: string;
  meetingId: string;
  role: ParticipantRole;
  displayName: string;
  afId: string | null;
  isAdmin: boolean;
  isParticipant: boolean;
  /** Added themselves by the sign-up link: never a moderator (migration 014 holds is_admin false for them). */
  selfRegistered: boolean;
}

/** How a user belongs to a meeting: a booked participant, or an anonymous visitor of a webcast. */
export type Membership =
  | { kind: 'participant'; meeting: MeetingSummary; participant: MemberRecord }
  | { kind: 'visitor'; meeting: MeetingSummary };

const MEETING_COLUMNS = `id, title, type, start_time, end_time, room_id, version, self_registrations, count_info_participants`;

type MeetingDbRow = Omit<MeetingRow, 'created' | 'created_by' | 'signup_code_hash' | 'signup_code_encrypted'>;

const toSummary = (r: MeetingDbRow): MeetingSummary => ({
  id: r.id,
  title: r.title,
  type: r.type === 1 ? 1 : 0,
  startTime: new Date(r.start_time),
  endTime: new Date(r.end_time),
  roomId: r.room_id,
  version: r.version,
  selfRegistrations: r.self_registrations,
  countInfoParticipants: r.count_info_participants,
});

/** The meeting's heading as the API answers it (contract MeetingHeading): times as ISO strings. */
export const meetingHeadingJson = (m: MeetingSummary): MeetingHeading => ({
  id: m.id,
  title: m.title,
  type: m.type,
  startTime: m.startTime.toISOString(),
  endTime: m.endTime.toISOString(),
});

/** The meeting's own facts as the API answers them (contract MeetingFacts). */
export const meetingFactsJson = (m: MeetingSummary): MeetingFacts => ({
  ...meetingHeadingJson(m),
  roomId: m.roomId,
  version: m.version,
  selfRegistrations: m.selfRegistrations,
  countInfoParticipants: m.countInfoParticipants,
});

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findMeeting(db: Queryable, id: string): Promise<MeetingSummary | null> {
  if (!UUID_PATTERN.test(id)) return null;
  const rows = await db.query<MeetingDbRow>(`SELECT ${MEETING_COLUMNS} FROM meetings WHERE id = $1`, [id]);
  return rows[0] ? toSummary(rows[0]) : null;
}

/** The hash of the meeting's current sign-up code; null when sign-up is off (signup-code.ts checks a link against it). */
export async function signupCodeHashOf(db: Queryable, meetingId: string): Promise<string | null> {
  if (!UUID_PATTERN.test(meetingId)) return null;
  const rows = await db.query<{ signup_code_hash: string | null }>('SELECT signup_code_hash FROM meetings WHERE id = $1', [meetingId]);
  return rows[0]?.signup_code_hash ?? null;
}

export async function findMeetingByRoomId(db: Queryable, roomId: string): Promise<MeetingSummary | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(roomId)) return null;
  const rows = await db.query<MeetingDbRow>(`SELECT ${MEETING_COLUMNS} FROM meetings WHERE room_id = $1`, [roomId]);
  return rows[0] ? toSummary(rows[0]) : null;
}

interface MemberDbRow {
  id: string;
  meeting_id: string;
  role: ParticipantRole;
  display_name: string;
  af_id: string | null;
  is_admin: boolean;
  is_participant: boolean;
  self_registered: boolean;
}

const MEMBER_COLUMNS = 'id, meeting_id, role, display_name, af_id, is_admin, is_participant, self_registered';

const toMember = (r: MemberDbRow): MemberRecord => ({
  id: r.id,
  meetingId: r.meeting_id,
  role: r.role,
  displayName: r.display_name,
  afId: r.af_id,
  isAdmin: r.is_admin,
  isParticipant: r.is_participant,
  selfRegistered: r.self_registered,
});

/** The user's participant row in a meeting: staff matched by agency id, e-ID users by keyed personnummer hash. */
export async function findMemberForUser(db: Queryable, meetingId: string, user: Pick<SessionUser, 'afId' | 'pinHash'>): Promise<MemberRecord | null> {
  if (!UUID_PATTERN.test(meetingId)) return null;
  let rows: MemberDbRow[] = [];
  if (user.afId) {
    rows = await db.query<MemberDbRow>(`SELECT ${MEMBER_COLUMNS} FROM meeting_participants WHERE meeting_id = $1 AND af_id = $2 ORDER BY position LIMIT 1`, [meetingId, user.afId]);
  }
  if (!rows.length && user.pinHash) {
    rows = await db.query<MemberDbRow>(`SELECT ${MEMBER_COLUMNS} FROM meeting_participants WHERE meeting_id = $1 AND pin_hash = $2 ORDER BY position LIMIT 1`, [meetingId, user.pinHash]);
  }
  return rows[0] ? toMember(rows[0]) : null;
}

export async function listMembers(db: Queryable, meetingId: string): Promise<MemberRecord[]> {
  const rows = await db.query<MemberDbRow>(`SELECT ${MEMBER_COLUMNS} FROM meeting_participants WHERE meeting_id = $1 ORDER BY position`, [meetingId]);
  return rows.map(toMember);
}

/** Whether, and how, this user may enter the meeting. Null means: not theirs (callers answer 403 or 404). */
export async function membershipOf(db: Queryable, meetingId: string, user: SessionUser): Promise<Membership | null> {
  const meeting = await findMeeting(db, meetingId);
  if (!meeting) return null;
  if (user.kind === 'anonymous') {
    return user.meetingId === meeting.id && meeting.type === 1 ? { kind: 'visitor', meeting } : null;
  }
  const participant = await findMemberForUser(db, meetingId, user);
  return participant ? { kind: 'participant', meeting, participant } : null;
}

/**
 * Meetings whose end fell in [from, to), with how many participants were booked: what the statistics need to
 * count a held meeting without reading the meetings tables themselves.
 */
export async function listMeetingsEndedBetween(
  db: Queryable,
  from: Date,
  to: Date,
  limit = 1000,
): Promise<{ meeting: MeetingSummary; participantCount: number }[]> {
  const rows = await db.query<MeetingDbRow & { participant_count: number }>(
    `SELECT ${MEETING_COLUMNS.split(', ').map((c) => `m.${c}`).join(', ')},
            (SELECT count(*) FROM meeting_participants p WHERE p.meeting_id = m.id) AS participant_count
       FROM meetings m
      WHERE m.end_time >= $1 AND m.end_time < $2
      ORDER BY m.end_time
      LIMIT $3`,
    [from, to, limit],
  );
  return rows.map((r) => ({ meeting: toSummary(r), participantCount: Number(r.participant_count) }));
}
