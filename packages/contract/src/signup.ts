import { Type, type Static } from 'typebox';
import { MeetingFacts } from './meetings.ts';

/**
 * Presenter / participant self-registration (booking spec §2 signup, §3 signup info, §7).
 *
 * A meeting is open for self-registration when its admin has turned sign-up on and it has not started. The sign-up
 * link `/meetings/{id}/signup?code=…` carries a code of the meeting's own (the meeting id alone is in every lobby
 * link, so it proves nothing); the admin can renew it, and old links stop working. Registering needs an e-ID login
 * (the personnummer is what later lets the person into the meeting).
 */

/** The query parameter of the sign-up page and of `validateexternaluser` that carries the sign-up code. */
export const SIGNUP_CODE_PARAM = 'code';

/** `GET /api/meeting/validateexternaluser/{id}?code=…`: the code is needed by everyone not yet in the meeting. */
export const SignupInfoQuery = Type.Object({ code: Type.Optional(Type.String({ maxLength: 64 })) });

/** `GET /api/meeting/validateexternaluser/{id}`. */
export const SignupInfo = Type.Object({
  id: Type.String(),
  startTime: Type.String({ format: 'date-time' }),
  endTime: Type.String({ format: 'date-time' }),
  type: Type.Union([Type.Literal(0), Type.Literal(1)]),
  selfRegistrations: Type.Integer(),
  /** Whether the signed-in user already is a participant (an addition to the spec's fields; lets the page say so). */
  currentUserRegistered: Type.Boolean(),
});
export type SignupInfo = Static<typeof SignupInfo>;

/**
 * `GET /api/meeting/signuptype/{id}` (ours): the meeting type alone, for the sign-up page opened without a code to
 * name the meeting in its heading while it says that registration needs the organiser's link. Nothing else of the
 * meeting: no time, no title, no people (the code guards those, validateexternaluser).
 */
export const SignupType = Type.Object({ type: Type.Union([Type.Literal(0), Type.Literal(1)]) });
export type SignupType = Static<typeof SignupType>;

/** `POST /api/meeting/addexternaluser`. `signedForm` must be true: the person accepted the data handling. */
export const AddExternalUserBody = Type.Object({
  data: Type.Object({
    meetingId: Type.String({ maxLength: 64 }),
    signedForm: Type.Optional(Type.Boolean()),
    /** The sign-up code of the link the person came by. */
    code: Type.Optional(Type.String({ maxLength: 64 })),
  }),
});
export type AddExternalUserRequest = Static<typeof AddExternalUserBody>['data'];

export const SignupParticipant = Type.Object({
  id: Type.String(),
  role: Type.String(),
  displayName: Type.String(),
  isAdmin: Type.Boolean(),
  isParticipant: Type.Boolean(),
  currentUser: Type.Boolean(),
  meetingId: Type.String(),
});

/** The meeting as the newly registered person may see it. Personnummer never travel back. */
export const SignupMeeting = Type.Object({
  ...MeetingFacts.properties,
  participants: Type.Array(SignupParticipant),
});
export type SignupMeeting = Static<typeof SignupMeeting>;

/** Spec §3: registered when a Meeting has any self-registration, or a Webcast more than 3. */
export function isRegistered(info: Pick<SignupInfo, 'type' | 'selfRegistrations'>): boolean {
  return info.type === 1 ? info.selfRegistrations > 3 : info.selfRegistrations > 0;
}

/** Spec §9: at most 10 participants in a conversation meeting, at most 8 presenters in a webcast. */
export const MAX_MEETING_PARTICIPANTS = 10;
export const MAX_WEBCAST_PRESENTERS = 8;

export const SIGNUP_TEXTS = {
  consentRequired: 'Du behöver godkänna hanteringen av personuppgifter.',
  invitedRequired: 'Du behöver bekräfta att du har blivit inbjuden till mötet.',
  errorHeading: 'Något gick fel vid registeringen',
  errorFallback: 'Något gick fel vid registreringen.',
  /** Registration closes when the meeting starts (server rule); the page says so before anyone fills it in. */
  closed: 'Mötet har redan startat och går inte längre att registrera sig till.',
  /**
   * Sign-up off, a wrong code and a renewed (old) code get this one answer: a person guessing learns nothing about
   * which it was, and a person with an old link learns what to do.
   */
  /** The page opened without the link's code (the plain meeting address): not an error, what to do. */
  linkMissing: 'För att registrera dig behöver du länken för registrering från mötets arrangör. Be den som bjöd in dig om länken.',
  linkInvalid:
    'Länken för registrering fungerar inte. Mötets administratör kan ha stängt av registreringen eller bytt till en ny länk. Be den som bjöd in dig om en ny länk.',
} as const;
