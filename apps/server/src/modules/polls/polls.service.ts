import { POLL_COMMENT_MAX, POLL_ERRORS, type MeetingPollInput } from '@videomote/contract/polls';
import type { ErrorItem } from '@videomote/contract/errors';
import type { Db, Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import { conflict, forbidden, notFound, validationError } from '../../platform/errors.ts';
import { findMeeting, membershipOf, UUID_PATTERN } from '../meetings/meeting-membership.ts';
import { recordRating } from '../stats/stats.service.ts';
import { insertPoll, markVoted, ratingSummary } from './polls.repository.ts';

export const RANGE_MESSAGE = 'Betyget måste vara mellan 1 och 5';

export interface ValidPoll {
  meetingId: string;
  callQuality: 1 | 2 | 3 | 4 | 5;
  comment: string | null;
}

/** The rules of booking spec §5 (rating): a rating 1–5 is required, the comment is optional and at most 4000. */
export function validatePoll(input: MeetingPollInput): ValidPoll {
  const errors: ErrorItem[] = [];
  const q = input.callQuality;
  if (q === undefined || q === null) errors.push({ fields: ['callQuality'], message: POLL_ERRORS.callQuality });
  else if (typeof q !== 'number' || !Number.isInteger(q) || q < 1 || q > 5) errors.push({ fields: ['callQuality'], message: RANGE_MESSAGE });
  const comment = typeof input.comment === 'string' && input.comment.trim() ? input.comment.trim() : null;
  if (comment && comment.length > POLL_COMMENT_MAX) errors.push({ fields: ['comment'], message: POLL_ERRORS.commentTooLong });
  const meetingId = typeof input.meetingId === 'string' ? input.meetingId.trim() : '';
  if (!UUID_PATTERN.test(meetingId)) errors.push({ fields: ['meetingId'], message: POLL_ERRORS.meetingId });
  if (errors.length) throw validationError(errors);
  return { meetingId, callQuality: q as ValidPoll['callQuality'], comment };
}

/**
 * Only someone who belongs to the meeting (a participant, or an anonymous visitor of that webcast) may rate it, and
 * once: a second rating is a 409 that the dialog shows, so one person cannot tilt a meeting's summary or the
 * statistics. A participant is their booking row (whichever login or tab they rate from); a visitor their session.
 */
export async function submitPoll(db: Db, now: Date, user: SessionUser, input: MeetingPollInput): Promise<{ id: string }> {
  const poll = validatePoll(input);
  if (!(await findMeeting(db, poll.meetingId))) throw notFound(POLL_ERRORS.meetingId);
  const membership = await membershipOf(db, poll.meetingId, user);
  if (!membership) throw forbidden(POLL_ERRORS.notParticipant);
  const voter = membership.kind === 'participant' ? `participant:${membership.participant.id}` : `visitor:${user.subject}`;
  return db.transaction(async (tx) => {
    if (!(await markVoted(tx, poll.meetingId, voter))) throw conflict(POLL_ERRORS.alreadyRated);
    const id = await insertPoll(tx, { ...poll, at: now });
    await recordRating(tx, now, poll.callQuality);
    return { id };
  });
}

/** Felsökning's view of a meeting's ratings: anonymous figures and the comments people chose to write. */
export const meetingRatings = (db: Queryable, meetingId: string) => ratingSummary(db, meetingId);
