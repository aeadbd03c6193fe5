import type { Queryable } from '../../platform/db.ts';

/** Stores the rating with its meeting and nothing about who gave it. */
export async function insertPoll(db: Queryable, p: { meetingId: string; callQuality: number; comment: string | null; at: Date }): Promise<string> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO meeting_polls (meeting_id, call_quality, comment, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
    [p.meetingId, p.callQuality, p.comment, p.at],
  );
  return rows[0]!.id;
}

/**
 * Notes that this voter has rated the meeting; false when they already had. Kept apart from the rating, so the
 * two cannot be joined; the row goes with the booking at the retention purge.
 */
export async function markVoted(db: Queryable, meetingId: string, voter: string): Promise<boolean> {
  const rows = await db.query('INSERT INTO meeting_poll_voters (meeting_id, voter) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1', [meetingId, voter]);
  return rows.length === 1;
}

export async function ratingSummary(
  db: Queryable,
  meetingId: string,
): Promise<{ count: number; average: number | null; comments: { at: string; callQuality: number; comment: string }[] }> {
  const rows = await db.query<{ count: number; average: string | number | null }>(
    'SELECT count(*) AS count, avg(call_quality) AS average FROM meeting_polls WHERE meeting_id = $1',
    [meetingId],
  );
  const r = rows[0];
  const average = r?.average === null || r?.average === undefined ? null : Math.round(Number(r.average) * 100) / 100;
  const comments = await db.query<{ created_at: Date | string; call_quality: number; comment: string }>(
    `SELECT created_at, call_quality, comment FROM meeting_polls
      WHERE meeting_id = $1 AND comment IS NOT NULL ORDER BY created_at DESC LIMIT 50`,
    [meetingId],
  );
  return {
    count: Number(r?.count ?? 0),
    average,
    comments: comments.map((c) => ({ at: new Date(c.created_at).toISOString(), callQuality: c.call_quality, comment: c.comment })),
  };
}
