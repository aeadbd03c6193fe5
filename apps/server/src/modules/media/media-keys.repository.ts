import type { Queryable } from '../../platform/db.ts';

/** The meeting's media key as stored: its epoch, the key encrypted at rest (PinCrypto's AES-256-GCM), and the meeting type it was made for. */
export interface StoredMediaKey {
  epoch: number;
  keyEncrypted: string;
  meetingType: number;
}

/** `lock`: inside a transaction, hold the key's row until it ends (hand-out and rotation take turns, see MediaKeys). */
export async function findMediaKey(db: Queryable, meetingId: string, lock = false): Promise<StoredMediaKey | null> {
  const rows = await db.query<{ epoch: number; key_encrypted: string; meeting_type: number }>(
    `SELECT epoch, key_encrypted, meeting_type FROM media_keys WHERE meeting_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [meetingId],
  );
  return rows[0] ? { epoch: Number(rows[0].epoch), keyEncrypted: rows[0].key_encrypted, meetingType: Number(rows[0].meeting_type) } : null;
}

/** Inserts the first key unless another request won the race; answers the stored one either way (locked if asked). */
export async function insertMediaKey(db: Queryable, meetingId: string, keyEncrypted: string, meetingType: number, lock = false): Promise<StoredMediaKey> {
  await db.query('INSERT INTO media_keys (meeting_id, epoch, key_encrypted, meeting_type) VALUES ($1, 1, $2, $3) ON CONFLICT (meeting_id) DO NOTHING', [
    meetingId,
    keyEncrypted,
    meetingType,
  ]);
  return (await findMediaKey(db, meetingId, lock))!;
}

/**
 * Replaces the key of epoch `from` with the next one. Conditional on the epoch, so that when several server
 * processes react to the same removal only one of them replaces it (the others change no row and answer false).
 */
export async function replaceMediaKey(db: Queryable, meetingId: string, from: number, keyEncrypted: string, meetingType: number): Promise<boolean> {
  const rows = await db.query<{ epoch: number }>(
    'UPDATE media_keys SET epoch = epoch + 1, key_encrypted = $3, meeting_type = $4, created_at = now() WHERE meeting_id = $1 AND epoch = $2 RETURNING epoch',
    [meetingId, from, keyEncrypted, meetingType],
  );
  return rows.length > 0;
}

export interface KeyHolder {
  participantId: string;
  /** `af:<agency id>` or `pin:<keyed personnummer hash>`: who the participant row matched when the key was handed out. */
  identity: string;
}

export async function addKeyHolder(db: Queryable, meetingId: string, holder: KeyHolder): Promise<void> {
  await db.query('INSERT INTO media_key_holders (meeting_id, participant_id, identity) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    meetingId,
    holder.participantId,
    holder.identity,
  ]);
}

export async function listKeyHolders(db: Queryable, meetingId: string): Promise<KeyHolder[]> {
  const rows = await db.query<{ participant_id: string; identity: string }>('SELECT participant_id, identity FROM media_key_holders WHERE meeting_id = $1', [meetingId]);
  return rows.map((r) => ({ participantId: r.participant_id, identity: r.identity }));
}

export async function deleteKeyHolders(db: Queryable, meetingId: string, holders: KeyHolder[]): Promise<void> {
  for (const h of holders) {
    await db.query('DELETE FROM media_key_holders WHERE meeting_id = $1 AND participant_id = $2 AND identity = $3', [meetingId, h.participantId, h.identity]);
  }
}
