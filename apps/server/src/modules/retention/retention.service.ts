import type { Db, Queryable } from '../../platform/db.ts';

/**
 * What the personal-data page promises (conference spec §9), done by the server:
 *  - the personal identity number is deleted once the meeting has ended;
 *  - contact details and all other booking information are deleted at midnight (Europe/Stockholm) of the meeting day;
 *  - chat content is deleted when the call ends (the chat module does it; we also tell it when a meeting is purged);
 *  - anonymous daily statistics are kept (the stats module aggregates in a hook before the meeting rows go);
 *  - a call rating's free-text comment (which may hold personal data) is deleted after `ratingCommentDays`; the
 *    rating itself has no link to a person and stays, for the meeting's summary and the statistics;
 *  - an accessibility report (free text, maybe a contact detail the reporter chose to give) is deleted whole after
 *    `accessibilityReportDays`: long enough to answer and fix, not kept for ever.
 * Every step is idempotent and runs under a transaction-scoped advisory lock, so several server processes can
 * schedule it and only one does the work at a time.
 */
export interface RetentionHooks {
  /** Runs in the purge transaction, before these meetings are deleted: aggregate what must survive. */
  beforeMeetingsPurged: ((tx: Queryable, meetingIds: string[]) => Promise<void>)[];
  /** Runs after the transaction committed: forget in-memory content (chat history, media rooms). */
  afterMeetingsPurged: ((meetingIds: string[]) => Promise<void> | void)[];
}

export interface RetentionOptions {
  ratingCommentDays: number;
  accessibilityReportDays: number;
}

export interface RetentionReport {
  ran: boolean;
  pinsCleared: number;
  ratingCommentsCleared: number;
  accessibilityReportsDeleted: number;
  meetingsPurged: number;
  sessionsPurged: number;
}

const RETENTION_LOCK = 727275;

export async function runRetention(db: Db, now: Date, hooks: RetentionHooks, options: RetentionOptions): Promise<RetentionReport> {
  const result = await db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [RETENTION_LOCK]);
    if (!lock?.locked) return null;

    const pins = await tx.query(
      `UPDATE meeting_participants p SET pin_hash = NULL, pin_encrypted = NULL
         FROM meetings m
        WHERE p.meeting_id = m.id AND m.end_time <= $1 AND (p.pin_hash IS NOT NULL OR p.pin_encrypted IS NOT NULL)
       RETURNING p.id`,
      [now],
    );

    // A meeting's booking lives until midnight after the day it ended, in Swedish local time.
    const due = await tx.query<{ id: string }>(
      `SELECT id FROM meetings
        WHERE end_time <= $1
          AND (end_time AT TIME ZONE 'Europe/Stockholm')::date < ($1::timestamptz AT TIME ZONE 'Europe/Stockholm')::date
        ORDER BY end_time
        LIMIT 1000`,
      [now],
    );
    const ids = due.map((r) => r.id);
    if (ids.length) {
      for (const hook of hooks.beforeMeetingsPurged) await hook(tx, ids);
      await tx.query('DELETE FROM meetings WHERE id = ANY($1::uuid[])', [ids]);
    }
    const sessions = await tx.query('DELETE FROM sessions WHERE expires_at <= $1 RETURNING 1', [now]);
    const comments = await tx.query(
      `UPDATE meeting_polls SET comment = NULL WHERE comment IS NOT NULL AND created_at <= $1::timestamptz - make_interval(days => $2::int) RETURNING 1`,
      [now, options.ratingCommentDays],
    );
    const reports = await tx.query(
      `DELETE FROM accessibility_reports WHERE created_at <= $1::timestamptz - make_interval(days => $2::int) RETURNING 1`,
      [now, options.accessibilityReportDays],
    );
    return {
      pinsCleared: pins.length,
      meetingIds: ids,
      sessionsPurged: sessions.length,
      ratingCommentsCleared: comments.length,
      accessibilityReportsDeleted: reports.length,
    };
  });
  if (!result) return { ran: false, pinsCleared: 0, ratingCommentsCleared: 0, accessibilityReportsDeleted: 0, meetingsPurged: 0, sessionsPurged: 0 };
  if (result.meetingIds.length) for (const hook of hooks.afterMeetingsPurged) await hook(result.meetingIds);
  return {
    ran: true,
    pinsCleared: result.pinsCleared,
    ratingCommentsCleared: result.ratingCommentsCleared,
    accessibilityReportsDeleted: result.accessibilityReportsDeleted,
    meetingsPurged: result.meetingIds.length,
    sessionsPurged: result.sessionsPurged,
  };
}
