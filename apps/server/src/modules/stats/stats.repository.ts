import type { Queryable } from '../../platform/db.ts';

export interface DayFigures {
  meetings: number;
  webcasts: number;
  participants: number;
  webcastAudience: number;
  /** Count per star, index 0 = 1 star. */
  ratingCounts: [number, number, number, number, number];
}

export const emptyFigures = (): DayFigures => ({ meetings: 0, webcasts: 0, participants: 0, webcastAudience: 0, ratingCounts: [0, 0, 0, 0, 0] });

/** True the first time a meeting is marked, false when it was counted already. */
export async function markMeetingRecorded(db: Queryable, meetingId: string, day: string): Promise<boolean> {
  const rows = await db.query(
    'INSERT INTO stats_recorded_meetings (meeting_id, day) VALUES ($1, $2) ON CONFLICT (meeting_id) DO NOTHING RETURNING meeting_id',
    [meetingId, day],
  );
  return rows.length > 0;
}

export async function recordedMeetingIds(db: Queryable, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.query<{ meeting_id: string }>('SELECT meeting_id FROM stats_recorded_meetings WHERE meeting_id = ANY($1::uuid[])', [ids]);
  return new Set(rows.map((r) => r.meeting_id));
}

export async function addMeetingToDay(db: Queryable, day: string, f: Pick<DayFigures, 'meetings' | 'webcasts' | 'participants' | 'webcastAudience'>): Promise<void> {
  await db.query(
    `INSERT INTO stats_daily (day, meetings, webcasts, participants, webcast_audience) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (day) DO UPDATE SET
       meetings = stats_daily.meetings + EXCLUDED.meetings,
       webcasts = stats_daily.webcasts + EXCLUDED.webcasts,
       participants = stats_daily.participants + EXCLUDED.participants,
       webcast_audience = stats_daily.webcast_audience + EXCLUDED.webcast_audience`,
    [day, f.meetings, f.webcasts, f.participants, f.webcastAudience],
  );
}

// The star picks one of five fixed columns; the map keeps anything else out of the SQL text.
const RATING_COLUMN = { 1: 'rating_1', 2: 'rating_2', 3: 'rating_3', 4: 'rating_4', 5: 'rating_5' } as const;

export async function addRatingToDay(db: Queryable, day: string, quality: 1 | 2 | 3 | 4 | 5): Promise<void> {
  const column = RATING_COLUMN[quality];
  await db.query(
    `INSERT INTO stats_daily (day, ${column}) VALUES ($1, 1)
     ON CONFLICT (day) DO UPDATE SET ${column} = stats_daily.${column} + 1`,
    [day],
  );
}

interface DailyRow {
  day: string | Date;
  meetings: number;
  webcasts: number;
  participants: number;
  webcast_audience: number;
  rating_1: number;
  rating_2: number;
  rating_3: number;
  rating_4: number;
  rating_5: number;
}

export async function readDays(db: Queryable, from: string, to: string): Promise<Map<string, DayFigures>> {
  const rows = await db.query<DailyRow>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, meetings, webcasts, participants, webcast_audience,
            rating_1, rating_2, rating_3, rating_4, rating_5
       FROM stats_daily WHERE day >= $1::date AND day <= $2::date ORDER BY day`,
    [from, to],
  );
  return new Map(
    rows.map((r) => [
      String(r.day),
      {
        meetings: r.meetings,
        webcasts: r.webcasts,
        participants: r.participants,
        webcastAudience: r.webcast_audience,
        ratingCounts: [r.rating_1, r.rating_2, r.rating_3, r.rating_4, r.rating_5],
      },
    ]),
  );
}
