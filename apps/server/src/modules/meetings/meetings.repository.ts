import type { Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import type { StoredSignupCode } from './signup-code.ts';

/** The only SQL of the meetings module. Personnummer appear here only as keyed hash and ciphertext. */
export interface MeetingRow {
  id: string;
  title: string;
  type: number;
  start_time: Date | string;
  end_time: Date | string;
  created: Date | string;
  created_by: string;
  room_id: string;
  version: number;
  self_registrations: number;
  count_info_participants: number;
  /** Both null: sign-up is off (migration 014). */
  signup_code_hash: string | null;
  signup_code_encrypted: string | null;
}

export interface ParticipantRow {
  id: string;
  meeting_id: string;
  position: number;
  role: string;
  display_name: string;
  af_id: string | null;
  pin_hash: string | null;
  pin_encrypted: string | null;
  email: string | null;
  is_participant: boolean;
  is_admin: boolean;
  self_registered: boolean;
}

/** A participant as the service decided to store it. */
export interface ParticipantWrite {
  id: string | null;
  role: string;
  displayName: string;
  afId: string | null;
  pinHash: string | null;
  pinEncrypted: string | null;
  email: string | null;
  isParticipant: boolean;
  isAdmin: boolean;
  selfRegistered: boolean;
}

export interface MeetingWrite {
  title: string;
  type: 0 | 1;
  start: Date;
  end: Date;
}

const MEETING_COLUMNS =
  'id, title, type, start_time, end_time, created, created_by, room_id, version, self_registrations, count_info_participants, signup_code_hash, signup_code_encrypted';
const PARTICIPANT_COLUMNS =
  'id, meeting_id, position, role, display_name, af_id, pin_hash, pin_encrypted, email, is_participant, is_admin, self_registered';

const PARTICIPANT_WRITE_COLUMNS = 'position, role, display_name, af_id, pin_hash, pin_encrypted, email, is_participant, is_admin, self_registered';
const PARTICIPANT_WRITE_TYPES = ['int', 'text', 'text', 'text', 'text', 'text', 'text', 'boolean', 'boolean', 'boolean'];

/** The start of meeting $1, for a participant row (migration 013: each row carries it for the user's week index). */
export const MEETING_START_OF_FIRST_PARAM = '(SELECT start_time FROM meetings WHERE id = $1)';

const participantValues = (position: number, p: ParticipantWrite) => [
  position, p.role, p.displayName, p.afId, p.pinHash, p.pinEncrypted, p.email, p.isParticipant, p.isAdmin, p.selfRegistered,
];

/**
 * A new meeting and all its participants in one statement: atomic without a transaction, and one round trip to the
 * database instead of five (booking is the busiest write).
 */
export async function insertMeetingWithParticipants(
  db: Queryable,
  m: MeetingWrite & { createdBy: string; roomId: string; created: Date; signupCode: StoredSignupCode | null },
  list: ParticipantWrite[],
): Promise<{ row: MeetingRow; participants: ParticipantRow[] }> {
  const params: unknown[] = [m.title, m.type, m.start, m.end, m.created, m.createdBy, m.roomId, m.signupCode?.hash ?? null, m.signupCode?.encrypted ?? null];
  const rows = list.map((p, position) => {
    const values = participantValues(position, p);
    const placeholders = values.map((v, c) => `$${params.push(v)}::${PARTICIPANT_WRITE_TYPES[c]}`);
    return `(${placeholders.join(', ')})`;
  });
  const participantsCte = rows.length
    ? `, p AS (
         INSERT INTO meeting_participants (meeting_id, meeting_start, ${PARTICIPANT_WRITE_COLUMNS})
         SELECT m.id, m.start_time, v.* FROM m, (VALUES ${rows.join(', ')}) AS v(${PARTICIPANT_WRITE_COLUMNS})
         RETURNING ${PARTICIPANT_COLUMNS})`
    : '';
  const [result] = await db.query<{ meeting: MeetingRow | string; participants: ParticipantRow[] | string | null }>(
    `WITH m AS (
       INSERT INTO meetings (title, type, start_time, end_time, created, created_by, room_id, signup_code_hash, signup_code_encrypted)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${MEETING_COLUMNS}
     )${participantsCte}
     SELECT (SELECT row_to_json(m) FROM m) AS meeting,
            ${rows.length ? '(SELECT json_agg(p ORDER BY p.position) FROM p)' : 'NULL'} AS participants`,
    params,
  );
  const row = typeof result!.meeting === 'string' ? (JSON.parse(result!.meeting) as MeetingRow) : result!.meeting;
  return { row, participants: withParticipants({ participants: result!.participants }).participants };
}

/**
 * Optimistic concurrency: only the holder of the current version may write; the loser gets no row back. A new start
 * moves with the meeting's participants in the same statement.
 */
export async function updateMeetingIfVersion(tx: Queryable, id: string, version: number, m: MeetingWrite): Promise<MeetingRow | null> {
  const rows = await tx.query<MeetingRow>(
    `WITH m AS (
       UPDATE meetings SET title = $3, type = $4, start_time = $5, end_time = $6, version = version + 1
       WHERE id = $1 AND version = $2 RETURNING ${MEETING_COLUMNS}
     ), moved AS (
       UPDATE meeting_participants p SET meeting_start = m.start_time FROM m WHERE p.meeting_id = m.id AND p.meeting_start <> m.start_time
     )
     SELECT * FROM m`,
    [id, version, m.title, m.type, m.start, m.end],
  );
  return rows[0] ?? null;
}

/** Makes the stored participant list equal to `list`: keeps ids that are still there, inserts the rest. */
export async function replaceParticipants(tx: Queryable, meetingId: string, list: ParticipantWrite[]): Promise<ParticipantRow[]> {
  const keep = list.map((p) => p.id).filter((id): id is string => !!id);
  await tx.query('DELETE FROM meeting_participants WHERE meeting_id = $1 AND NOT (id = ANY($2::uuid[]))', [meetingId, keep]);
  const inserts: unknown[][] = [];
  for (const [position, p] of list.entries()) {
    const values = participantValues(position, p);
    if (p.id) {
      await tx.query(
        `UPDATE meeting_participants SET position = $3, role = $4, display_name = $5, af_id = $6, pin_hash = $7, pin_encrypted = $8,
           email = $9, is_participant = $10, is_admin = $11, self_registered = $12
         WHERE meeting_id = $1 AND id = $2`,
        [meetingId, p.id, ...values],
      );
    } else {
      inserts.push(values);
    }
  }
  if (!inserts.length) return [];
  // New participants in one statement: one round trip however many there are.
  const width = inserts[0]!.length;
  const rows = inserts.map((_, r) => `($1, ${MEETING_START_OF_FIRST_PARAM}, ${Array.from({ length: width }, (_, c) => `$${2 + r * width + c}`).join(', ')})`);
  return tx.query<ParticipantRow>(
    `INSERT INTO meeting_participants (meeting_id, meeting_start, ${PARTICIPANT_WRITE_COLUMNS})
     VALUES ${rows.join(', ')} RETURNING ${PARTICIPANT_COLUMNS}`,
    [meetingId, ...inserts.flat()],
  );
}

/** A meeting with its participants in one round trip. */
export async function findMeetingWithParticipants(db: Queryable, id: string): Promise<MeetingWithParticipants | null> {
  const [row] = await db.query<{ meeting: string | null }>(
    `SELECT (SELECT row_to_json(x) FROM (SELECT ${MEETING_COLUMNS}, ${PARTICIPANTS_JSON} AS participants FROM meetings m WHERE m.id = $1) x)::text AS meeting`,
    [id],
  );
  return row?.meeting ? withParticipants(JSON.parse(row.meeting) as MeetingWithParticipants) : null;
}

/**
 * The ids of the meetings a user takes part in that start in [$from, $to), or from $from on: one index range per
 * identity (migration 013). Two index-only scans rather than one `af_id = … OR pin_hash = …`, which PostgreSQL can
 * only answer by visiting every matching participant row.
 */
const USER_MEETING_IDS = (p: { from: number; to?: number; afId: number; pinHash: number }) => {
  const range = `meeting_start >= $${p.from}${p.to ? ` AND meeting_start < $${p.to}` : ''}`;
  return `SELECT meeting_id FROM meeting_participants WHERE af_id = $${p.afId} AND ${range}
   UNION ALL SELECT meeting_id FROM meeting_participants WHERE pin_hash = $${p.pinHash} AND ${range}`;
};

/** An instant as the API writes it (Date.prototype.toISOString): UTC, milliseconds, "Z". */
const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The user's own meetings starting in [from, to), as the JSON text of the API's `Meeting[]`, built by PostgreSQL
 * and sent as it is: staff found by agency id, e-ID users by keyed personnummer hash. The day and week lists are
 * the busiest calls, and the Node process is the bottleneck under load (it parsed the database's rows, shaped
 * them, formatted their dates and serialised them again: a fifth of its time); the database builds the same
 * document for little more than it spent on the rows. The shape is MeetingsService.toDto's for a list: no
 * personnummer, not even masked (the cards never show them), e-mail addresses only to the meeting's admins.
 * meetings.api.test.ts compares the two shapes. The meetings' own start is checked too: it is the truth that the
 * participants' copy follows.
 */
export async function meetingListJson(db: Queryable, user: SessionUser, from: Date, to: Date): Promise<string> {
  const isUser = (p: string) => `(coalesce(${p}.af_id = $3, false) OR coalesce(${p}.pin_hash = $4, false))`;
  const [row] = await db.query<{ meetings: string }>(
    `SELECT coalesce(json_agg(x ORDER BY x."startTime", x.id), '[]')::text AS meetings FROM (
       SELECT m.id, m.title, m.type, ${ISO('m.start_time')} AS "startTime", ${ISO('m.end_time')} AS "endTime",
              ${ISO('m.created')} AS created, m.room_id AS "roomId", m.version, coalesce(m.participants, '[]') AS participants,
              m.self_registrations AS "selfRegistrations", m.count_info_participants AS "countInfoParticipants",
              m.created_by AS "createdBy", m.admin AS "currentUserIsAdmin", m.signup_code_hash IS NOT NULL AS "signupEnabled"
       FROM (
         SELECT m.*, admin.yes AS admin,
                (SELECT json_agg((SELECT r FROM (SELECT p.id, p.role, p.display_name AS "displayName", NULL::text AS pin,
                          p.af_id AS "afId", CASE WHEN admin.yes THEN p.email END AS email, ${isUser('p')} AS "currentUser",
                          p.is_participant AS "isParticipant", p.is_admin AS "isAdmin", p.meeting_id AS "meetingId",
                          p.self_registered AS "selfRegistered") r) ORDER BY p.position)
                 FROM meeting_participants p WHERE p.meeting_id = m.id) AS participants
         FROM meetings m
         CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM meeting_participants u WHERE u.meeting_id = m.id AND u.is_admin AND ${isUser('u')}) AS yes) admin
         WHERE m.id IN (${USER_MEETING_IDS({ from: 1, to: 2, afId: 3, pinHash: 4 })})
           AND m.start_time >= $1 AND m.start_time < $2
       ) m
     ) x`,
    [from, to, user.afId, user.pinHash],
  );
  return row!.meetings;
}

/**
 * A meeting's participants as a JSON array, in their order. Aggregating whole rows of a subquery: building each
 * object key by key (json_build_object) cost PostgreSQL twice the CPU for the same document.
 */
const PARTICIPANTS_JSON = `(SELECT json_agg(p ORDER BY p.position) FROM (SELECT ${PARTICIPANT_COLUMNS} FROM meeting_participants WHERE meeting_id = m.id) p)`;

export type MeetingWithParticipants = MeetingRow & { participants: ParticipantRow[] };

/** A meeting without participants has null from json_agg. */
const withParticipants = <T extends { participants: ParticipantRow[] | string | null }>(r: T): Omit<T, 'participants'> & { participants: ParticipantRow[] } => ({
  ...r,
  participants: typeof r.participants === 'string' ? (JSON.parse(r.participants) as ParticipantRow[]) : (r.participants ?? []),
});

export async function upcomingStartsOfUser(db: Queryable, user: SessionUser, from: Date): Promise<Date[]> {
  const rows = await db.query<{ start_time: Date | string }>(
    `SELECT m.start_time FROM meetings m
     WHERE m.id IN (${USER_MEETING_IDS({ from: 1, afId: 2, pinHash: 3 })})
       AND m.start_time >= $1
     ORDER BY m.start_time LIMIT 5000`,
    [from, user.afId, user.pinHash],
  );
  return rows.map((r) => new Date(r.start_time));
}

export async function deleteMeetingRow(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM meetings WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}

/** Turns sign-up on with a new code, renews the code (old links stop working), or turns it off (null). */
export async function setSignupCode(db: Queryable, id: string, code: StoredSignupCode | null): Promise<void> {
  await db.query('UPDATE meetings SET signup_code_hash = $2, signup_code_encrypted = $3 WHERE id = $1', [id, code?.hash ?? null, code?.encrypted ?? null]);
}

export async function setCountInfoParticipants(db: Queryable, id: string, count: number): Promise<void> {
  await db.query('UPDATE meetings SET count_info_participants = $2 WHERE id = $1', [id, count]);
}

/** Meetings going on at `now` (all of them, every process's): the operations gauge. */
export async function countMeetingsInProgress(db: Queryable, now: Date): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*) AS n FROM meetings WHERE start_time <= $1 AND end_time > $1', [now]);
  return row?.n ?? 0;
}
