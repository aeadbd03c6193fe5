import { Type, type Static } from 'typebox';

/** Call rating poll (booking spec §3): stored with the meeting id only, never who answered. */
export const MeetingPollInput = Type.Object({
  /** Checked by the service (an integer 1–5): the validator's coercion would turn 0 into null and null into 0. */
  callQuality: Type.Optional(Type.Unknown()),
  comment: Type.Optional(Type.Union([Type.Null(), Type.String()])),
  meetingId: Type.Optional(Type.Union([Type.Null(), Type.String()])),
});
export type MeetingPollInput = Static<typeof MeetingPollInput>;

export const POLL_COMMENT_MAX = 4000;
export const POLL_DEFAULT_RATING = 3;

/** Labels of the five stars (booking spec §5). */
export const RATING_LABELS: Record<1 | 2 | 3 | 4 | 5, string> = {
  1: 'Dålig',
  2: 'Mindre bra',
  3: 'Bra',
  4: 'Väldigt bra',
  5: 'Mycket bra',
};

export const POLL_ERRORS = {
  callQuality: 'Du måste ange ett betyg för att få skicka in.',
  commentTooLong: `Kommentaren får vara högst ${POLL_COMMENT_MAX} tecken`,
  meetingId: 'Mötet finns inte',
  notParticipant: 'Du kan bara betygsätta möten som du har deltagit i.',
  alreadyRated: 'Du har redan betygsatt det här mötet. Tack för ditt svar!',
} as const;
