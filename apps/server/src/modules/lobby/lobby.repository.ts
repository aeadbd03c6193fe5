import type { Queryable } from '../../platform/db.ts';

/**
 * The only SQL of the lobby module: the consent given in the lobby. Self-registration's rows belong to the
 * meetings module (meetings/self-registration.ts).
 */

/** The lobby's consent for one participant of one meeting; a second consent keeps the first time. */
export async function insertConsent(db: Queryable, meetingId: string, participantId: string, at: Date): Promise<void> {
  await db.query('INSERT INTO lobby_consents (participant_id, meeting_id, consented_at) VALUES ($1, $2, $3) ON CONFLICT (participant_id) DO NOTHING', [participantId, meetingId, at]);
}

/** The box unticked again: the consent is withdrawn (booking spec §4: entering needs it ticked). */
export async function deleteConsent(db: Queryable, meetingId: string, participantId: string): Promise<void> {
  await db.query('DELETE FROM lobby_consents WHERE participant_id = $1 AND meeting_id = $2', [participantId, meetingId]);
}

export async function hasConsent(db: Queryable, meetingId: string, participantId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM lobby_consents WHERE participant_id = $1 AND meeting_id = $2', [participantId, meetingId]);
  return rows.length > 0;
}
