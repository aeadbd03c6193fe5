import type { ParticipantRole } from '@videomote/contract/participant-roles';
import type { Queryable } from '../../platform/db.ts';
import { MEETING_START_OF_FIRST_PARAM } from './meetings.repository.ts';

/**
 * Self-registration's writes to the meetings tables, for the lobby's sign-up rules (lobby/signup.service.ts):
 * the lock, the count the limits read and the insert run in the caller's one transaction, so two people
 * registering at once cannot both take the last place.
 */

/** Takes the meeting's row lock so that two people registering at once cannot both take the last place. */
export async function lockMeeting(tx: Queryable, meetingId: string): Promise<boolean> {
  const rows = await tx.query('SELECT id FROM meetings WHERE id = $1 FOR UPDATE', [meetingId]);
  return rows.length > 0;
}

export async function countParticipants(tx: Queryable, meetingId: string, roles?: readonly ParticipantRole[]): Promise<number> {
  const rows = roles
    ? await tx.query<{ n: number }>('SELECT count(*) AS n FROM meeting_participants WHERE meeting_id = $1 AND role = ANY($2)', [meetingId, [...roles]])
    : await tx.query<{ n: number }>('SELECT count(*) AS n FROM meeting_participants WHERE meeting_id = $1', [meetingId]);
  return Number(rows[0]?.n ?? 0);
}

export interface NewSelfRegistration {
  meetingId: string;
  role: ParticipantRole;
  displayName: string;
  pinHash: string;
  pinEncrypted: string;
}

/** Adds the person last in the list, marks the row self-registered and bumps the meeting's count and version. */
export async function insertSelfRegistration(tx: Queryable, p: NewSelfRegistration): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO meeting_participants (meeting_id, meeting_start, position, role, display_name, af_id, pin_hash, pin_encrypted, is_participant, is_admin, self_registered)
     VALUES ($1, ${MEETING_START_OF_FIRST_PARAM}, (SELECT coalesce(max(position) + 1, 0) FROM meeting_participants WHERE meeting_id = $1), $2, $3, NULL, $4, $5, true, false, true)
     RETURNING id`,
    [p.meetingId, p.role, p.displayName, p.pinHash, p.pinEncrypted],
  );
  await tx.query('UPDATE meetings SET self_registrations = self_registrations + 1, version = version + 1 WHERE id = $1', [p.meetingId]);
  return row!.id;
}

