import {
  CLIENT_ERROR_MESSAGE_MAX,
  ClientErrorCodes,
  MEETING_ERROR_ERRORS,
  RECENT_ERRORS_LIMIT,
  type MeetingErrorItem,
  type MeetingErrorReport,
  type MeetingErrorSource,
} from '@videomote/contract/admin';
import type { ErrorItem } from '@videomote/contract/errors';
import type { Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import { forbidden, notFound, validationError } from '../../platform/errors.ts';
import { findMeeting, membershipOf, UUID_PATTERN } from '../meetings/meeting-membership.ts';

/** Rows kept per meeting: Felsökning shows the latest 50; a noisy meeting must not grow the table without end. */
const KEEP_PER_MEETING = 200;
const TEXT_MAX = 500;

/**
 * Keeps personal data out of an error text whoever wrote it: digit runs (personnummer, phone numbers) and e-mail
 * addresses are replaced, control characters dropped, whitespace folded.
 */
export function scrubErrorText(text: string, max = TEXT_MAX): string {
  const clean = text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '[borttaget]')
    .replace(/\+?\d[\d\s-]{4,}\d/g, '[borttaget]')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export interface MeetingErrorEntry {
  meetingId: string;
  source: MeetingErrorSource;
  code: string;
  message: string;
  at: Date;
}

/**
 * Records one error of a meeting for Felsökning. Best effort: failing to record an error must never become an
 * error of its own (the meeting may have been deleted a moment ago, the database may be restarting).
 */
export async function recordMeetingError(db: Queryable, e: MeetingErrorEntry, log?: { warn(obj: object, msg: string): void }): Promise<void> {
  if (!UUID_PATTERN.test(e.meetingId)) return;
  try {
    await db.query(
      `INSERT INTO meeting_errors (meeting_id, at, source, code, message)
       SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM meetings WHERE id = $1)`,
      [e.meetingId, e.at, e.source, e.code.slice(0, 64), scrubErrorText(e.message)],
    );
    await db.query(
      `DELETE FROM meeting_errors WHERE meeting_id = $1 AND id <= (
         SELECT id FROM meeting_errors WHERE meeting_id = $1 ORDER BY id DESC OFFSET ${KEEP_PER_MEETING} LIMIT 1)`,
      [e.meetingId],
    );
  } catch (err) {
    log?.warn({ err, meetingId: e.meetingId }, 'meeting error could not be recorded');
  }
}

/** A recorder bound to a database and clock, for modules that report errors as they happen (chat, media). */
export type MeetingErrorRecorder = (meetingId: string, source: MeetingErrorSource, code: string, message: string) => void;

/** Errors the server records per meeting and minute, at most: enough to see what went wrong, too few to flood. */
export const RECORDED_PER_MINUTE = 30;
/** Meetings whose minute is tracked at once; beyond this the oldest is forgotten (memory stays bounded). */
const TRACKED_MEETINGS = 10_000;

/**
 * Rate-limits what is recorded per meeting: a fixed one-minute window each. A socket in a reconnect loop, or
 * someone trying on purpose, then costs at most RECORDED_PER_MINUTE rows a minute and never pushes the errors
 * that explain a problem out of Felsökning's latest 50 within seconds.
 */
export function meetingErrorLimiter(max = RECORDED_PER_MINUTE): (meetingId: string, at: Date) => boolean {
  const windows = new Map<string, { start: number; count: number }>();
  return (meetingId, at) => {
    const t = at.getTime();
    let w = windows.get(meetingId);
    if (!w || t - w.start >= 60_000) {
      windows.delete(meetingId);
      if (windows.size >= TRACKED_MEETINGS) windows.delete(windows.keys().next().value!);
      w = { start: t, count: 0 };
      windows.set(meetingId, w);
    }
    return ++w.count <= max;
  };
}

export function meetingErrorRecorder(db: Queryable, now: () => Date, log?: { warn(obj: object, msg: string): void }): MeetingErrorRecorder {
  const allowed = meetingErrorLimiter();
  return (meetingId, source, code, message) => {
    const at = now();
    if (allowed(meetingId, at)) void recordMeetingError(db, { meetingId, source, code, message, at }, log);
  };
}

export async function recentMeetingErrors(db: Queryable, meetingId: string, limit = RECENT_ERRORS_LIMIT): Promise<MeetingErrorItem[]> {
  const rows = await db.query<{ at: Date | string; source: MeetingErrorSource; code: string; message: string }>(
    'SELECT at, source, code, message FROM meeting_errors WHERE meeting_id = $1 ORDER BY at DESC, id DESC LIMIT $2',
    [meetingId, limit],
  );
  return rows.map((r) => ({ at: new Date(r.at).toISOString(), source: r.source, code: r.code, message: r.message }));
}

/**
 * A browser reports a call error: a code from the fixed list and a short text, for a meeting the caller belongs to
 * (a participant, or a visitor of that webcast), like the call rating.
 */
export async function reportClientError(db: Queryable, now: Date, user: SessionUser, input: MeetingErrorReport): Promise<{ recorded: true }> {
  const errors: ErrorItem[] = [];
  const meetingId = typeof input.meetingId === 'string' ? input.meetingId.trim() : '';
  if (!UUID_PATTERN.test(meetingId)) errors.push({ fields: ['meetingId'], message: MEETING_ERROR_ERRORS.meetingId });
  const code = input.code ?? '';
  if (!(ClientErrorCodes as readonly string[]).includes(code)) errors.push({ fields: ['code'], message: MEETING_ERROR_ERRORS.code });
  const message = typeof input.message === 'string' ? input.message.trim() : '';
  if (message.length > CLIENT_ERROR_MESSAGE_MAX) errors.push({ fields: ['message'], message: MEETING_ERROR_ERRORS.messageTooLong });
  if (errors.length) throw validationError(errors);
  if (!(await findMeeting(db, meetingId))) throw notFound(MEETING_ERROR_ERRORS.meetingId);
  if (!(await membershipOf(db, meetingId, user))) throw forbidden(MEETING_ERROR_ERRORS.notParticipant);
  await recordMeetingError(db, { meetingId, source: 'client', code, message: message || code, at: now });
  return { recorded: true };
}
