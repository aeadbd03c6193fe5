import type { ConnectionCheckResult, ParticipantConnectionCheck } from '@videomote/contract/connection-check';
import type { Queryable } from '../../platform/db.ts';

/** The only SQL of the lobby's connection check: one row per participant, its last outcome and when. */
export async function upsertConnectionCheck(db: Queryable, meetingId: string, participantId: string, result: ConnectionCheckResult, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO connection_checks (participant_id, meeting_id, result, checked_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (participant_id) DO UPDATE SET result = excluded.result, checked_at = excluded.checked_at`,
    [participantId, meetingId, result, at],
  );
}

export async function listConnectionChecks(db: Queryable, meetingId: string): Promise<ParticipantConnectionCheck[]> {
  const rows = await db.query<{ participant_id: string; result: ConnectionCheckResult; checked_at: Date | string }>(
    'SELECT participant_id, result, checked_at FROM connection_checks WHERE meeting_id = $1 ORDER BY checked_at',
    [meetingId],
  );
  return rows.map((r) => ({ participantId: r.participant_id, result: r.result, checkedAt: new Date(r.checked_at).toISOString() }));
}
