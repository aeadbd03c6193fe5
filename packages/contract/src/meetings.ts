import { Type, type Static } from 'typebox';
import { ParticipantRoles } from './participant-roles.ts';

/**
 * The meetings API (booking spec §3, §7). Times travel as ISO 8601 with offset; the meeting type is numbered
 * (0 Meeting, 1 Webcast); roles travel by name.
 *
 * Personnummer: the server never sends one in clear. To the meeting's admins it sends a masked form
 * (`PIN_MASK_PATTERN`, e.g. `19900101-****`), to everybody else `null`. A participant that keeps its id and sends
 * the mask (or nothing) back keeps the stored number; sending a full number replaces it.
 */
export const ParticipantRoleSchema = Type.Union(ParticipantRoles.map((r) => Type.Literal(r)));

const NullableString = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

export const ParticipantRequest = Type.Object({
  id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  role: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  displayName: Type.Optional(NullableString(200)),
  pin: Type.Optional(NullableString(32)),
  afId: Type.Optional(NullableString(64)),
  email: Type.Optional(NullableString(254)),
  currentUser: Type.Optional(Type.Boolean()),
  isParticipant: Type.Optional(Type.Boolean()),
  isAdmin: Type.Optional(Type.Boolean()),
  meetingId: Type.Optional(NullableString(64)),
  /** The card is still open in the form: the server refuses to save ('Alla deltagare måste sparas'). */
  editMode: Type.Optional(Type.Boolean()),
  /** A participant carried over by copy: the server takes the stored personnummer from this participant. */
  copiedFromParticipantId: Type.Optional(NullableString(64)),
});
export type ParticipantRequest = Static<typeof ParticipantRequest>;

export const MeetingRequest = Type.Object({
  id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  title: Type.Optional(NullableString(200)),
  type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  startTime: Type.Optional(NullableString(40)),
  endTime: Type.Optional(NullableString(40)),
  version: Type.Optional(Type.Integer()),
  participants: Type.Optional(Type.Array(ParticipantRequest, { maxItems: 50 })),
  /** Set by the copy form: the meeting the participants were copied from. */
  copiedFromMeetingId: Type.Optional(NullableString(64)),
  sessionId: Type.Optional(NullableString(200)),
  createdBy: Type.Optional(NullableString(200)),
  /**
   * Whether people may add themselves by the sign-up link (off unless the admin turns it on). Left out of an
   * update, the meeting keeps what it had; turned on, the meeting gets a new sign-up code.
   */
  signupEnabled: Type.Optional(Type.Boolean()),
});
export type MeetingRequest = Static<typeof MeetingRequest>;

export const Participant = Type.Object({
  id: Type.Union([Type.String(), Type.Null()]),
  role: Type.String(),
  displayName: Type.String(),
  /** Masked for the meeting's admins, null for everybody else. Never the number itself. */
  pin: Type.Union([Type.String(), Type.Null()]),
  afId: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  currentUser: Type.Boolean(),
  isParticipant: Type.Boolean(),
  isAdmin: Type.Boolean(),
  meetingId: Type.Union([Type.String(), Type.Null()]),
  selfRegistered: Type.Boolean(),
  copiedFromParticipantId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type Participant = Static<typeof Participant>;

/** A meeting's heading: what each view of one meeting shows first (the lobby shows only this). */
export const MeetingHeading = Type.Object({
  id: Type.String(),
  title: Type.String(),
  /** 0 Meeting (conversation), 1 Webcast (information meeting). */
  type: Type.Union([Type.Literal(0), Type.Literal(1)]),
  startTime: Type.String({ format: 'date-time' }),
  endTime: Type.String({ format: 'date-time' }),
});
export type MeetingHeading = Static<typeof MeetingHeading>;

/** A saved meeting's own facts without its participants (self-registration's answer, Felsökning). */
export const MeetingFacts = Type.Object({
  ...MeetingHeading.properties,
  roomId: Type.String(),
  version: Type.Integer(),
  selfRegistrations: Type.Integer(),
  countInfoParticipants: Type.Integer(),
});
export type MeetingFacts = Static<typeof MeetingFacts>;

export const Meeting = Type.Object({
  id: Type.Union([Type.String(), Type.Null()]),
  title: Type.String(),
  type: Type.Union([Type.Literal(0), Type.Literal(1)]),
  startTime: Type.String(),
  endTime: Type.String(),
  created: Type.Union([Type.String(), Type.Null()]),
  roomId: Type.Union([Type.String(), Type.Null()]),
  version: Type.Integer(),
  participants: Type.Array(Participant),
  selfRegistrations: Type.Integer(),
  countInfoParticipants: Type.Integer(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  /** Whether the asking user is an admin of this meeting (shows edit, copy, delete, calendar and links). */
  currentUserIsAdmin: Type.Boolean(),
  /** Self-registration by the sign-up link is on. The link itself (its code) is only in the admins' invitations. */
  signupEnabled: Type.Boolean(),
  /** Set on a copy template. */
  copiedFromMeetingId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type Meeting = Static<typeof Meeting>;

export const MeetingWeek = Type.Object({ week: Type.Integer(), year: Type.Integer() });
export type MeetingWeek = Static<typeof MeetingWeek>;

export const CountInfoParticipantsRequest = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 64 })),
  countInfoParticipants: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
});
export type CountInfoParticipantsRequest = Static<typeof CountInfoParticipantsRequest>;
/** `PUT /api/meeting/{id}/{count}` answer: the count as stored. */
export const CountInfoParticipants = Type.Object({ id: Type.String(), countInfoParticipants: Type.Integer() });
export type CountInfoParticipants = Static<typeof CountInfoParticipants>;

/** `GET /api/employee/{query}` (booking spec §3: signatur, namn, elektroniskAdress). */
export const Employee = Type.Object({ signatur: Type.String(), namn: Type.String(), elektroniskAdress: Type.String() });
export type Employee = Static<typeof Employee>;

/** Invitation audience codes (booking spec §3): they select the mail template and the links it carries. */
export const AudienceCodes = ['NotDefined', 'ID', 'IPREG', 'IPAF', 'IPE', 'SD', 'LevD', 'LevR'] as const;
export type AudienceCode = (typeof AudienceCodes)[number];

export const Invitation = Type.Object({
  audience: Type.String(),
  /** The participant it is for; null for the general links (public, self-registration). */
  participantId: Type.Union([Type.String(), Type.Null()]),
  label: Type.String(),
  to: Type.Union([Type.String(), Type.Null()]),
  subject: Type.String(),
  body: Type.String(),
  mailto: Type.String(),
});
export type Invitation = Static<typeof Invitation>;

export const MeetingLink = Type.Object({ label: Type.String(), url: Type.String() });
export type MeetingLink = Static<typeof MeetingLink>;

/** `GET /api/meeting/{id}/invitations`, for the meeting's admins: the links accordion and the mail templates. */
export const MeetingInvitations = Type.Object({
  links: Type.Array(MeetingLink),
  invitations: Type.Array(Invitation),
});
export type MeetingInvitations = Static<typeof MeetingInvitations>;

/** `POST /api/meeting/{id}/signupcode`: nothing to say but the meeting in the path; answers `MeetingInvitations`. */
export const RenewSignupCodeRequest = Type.Object({});

/** The label of the sign-up link in `MeetingInvitations.links` (the web finds the link by it to offer renewal). */
export const SIGNUP_LINK_LABEL = 'Länk för självregistrering';

export const PIN_MASK_PATTERN = /^\d{8}-\*{4}$/;
export const MEETING_MAX_PARTICIPANTS = 10;
export const WEBCAST_MAX_PRESENTERS = 8;
export const ABOUT_TO_START_MINUTES = 15;
export const MEETING_TIME_ZONE = 'Europe/Stockholm';
