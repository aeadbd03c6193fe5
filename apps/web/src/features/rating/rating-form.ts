import { POLL_COMMENT_MAX, POLL_ERRORS } from '@videomote/contract/polls';

export type RatingDecision =
  | { kind: 'close' }
  | { kind: 'error'; message: string }
  | { kind: 'send'; callQuality: number; comment: string | null; thenHelp: boolean };

/**
 * Booking spec §4/§5: nothing given → just close; a comment without a rating → the error; otherwise send, and a
 * rating of 2 or below then shows the troubleshooting and fault-report help.
 */
export function decideRating(rating: number | null, comment: string): RatingDecision {
  const text = comment.trim();
  if (rating === null && !text) return { kind: 'close' };
  if (rating === null) return { kind: 'error', message: POLL_ERRORS.callQuality };
  if (text.length > POLL_COMMENT_MAX) return { kind: 'error', message: POLL_ERRORS.commentTooLong };
  return { kind: 'send', callQuality: rating, comment: text || null, thenHelp: rating <= 2 };
}
