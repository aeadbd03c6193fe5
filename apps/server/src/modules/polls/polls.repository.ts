import type { Queryable } from '../../platform/db.ts';

/** Stores the rating with its meeting and nothing about who gave it. */
export async function insertPoll(db: Queryable, p: { meetingId: string; callQuality: number; comment: string | null; at: Date }): Promise<string> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO meeting_polls (meeting_id, call_quality, comment, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
    [p.meetingId, p.callQuality, p.comment, p.at],
  );
  return rows[0]!.id;
}

export async function ratingSummary(db: Queryable, meetingId: string): Promise<{ count: number; average: number | null }> {
  const rows = await db.query<{ count: number; average: string | number | null }>(
    'SELECT count(*) AS count, avg(call_quality) AS average FROM meeting_polls WHERE meeting_id = $1',
    [meetingId],
  );
  const r = rows[0];
  const average = r?.average === null || r?.average === undefined ? null : Math.round(Number(r.average) * 100) / 100;
  return { count: Number(r?.count ?? 0), average };
}
