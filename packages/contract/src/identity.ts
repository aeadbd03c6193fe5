import { Type, type Static } from 'typebox';

/** Membership roles as the identity provider sends them (booking spec §6); unknown ones are ignored. */
export const MembershipRoles = ['Participant', 'VIDAdmin', 'KompletterandeAktör', 'FriståendeAktör', 'VIDMedarbetare'] as const;
export type MembershipRole = (typeof MembershipRoles)[number];

export const Features = ['EditMeeting', 'InternalMeeting', 'ScreenShare'] as const;
export type Feature = (typeof Features)[number];

export const UserLevels = ['None', 'Intern', 'MSFA', 'KA'] as const;
export type UserLevel = (typeof UserLevels)[number];

/** How a person was identified: the server decides, the client only shows it. */
export const IdentityKinds = ['staff', 'eid', 'anonymous'] as const;
export type IdentityKind = (typeof IdentityKinds)[number];

/** `GET api/login/getuserdata` (booking spec §3 identity, §7). */
export const UserData = Type.Object({
  ciamGivenName: Type.String(),
  ciamFamilyName: Type.String(),
  ciamSub: Type.String(),
  afRole: Type.Array(Type.String()),
  features: Type.Array(Type.String()),
  userLevel: Type.String(),
  isAdmin: Type.Boolean(),
  identityKind: Type.String(),
  afId: Type.Union([Type.String(), Type.Null()]),
  /** Set for an anonymous visitor: the one webcast the session is scoped to. */
  meetingId: Type.Union([Type.String(), Type.Null()]),
});
export type UserData = Static<typeof UserData>;

/** `POST api/login/logout` answer: the identity provider environment to log out of (booking spec §4). */
export const LogoutEnvironment = Type.String();

/** `GET api/login/keepalive` answer: when the session now ends, unless used again. */
export const SessionExpiry = Type.Object({ expiresAt: Type.String() });
export type SessionExpiry = Static<typeof SessionExpiry>;

/**
 * What a camera publisher sends as VP8 simulcast (three spatial layers: a quarter, a half and the full captured
 * size, each with temporal layers) and what a screen share sends (one full-size layer at a frame rate for text).
 * Bit rates in kbit/s; operators tune them with SIMULCAST_* (docs/media.md, "Adaptive quality").
 */
export const VideoLayers = Type.Object({
  lowKbps: Type.Integer({ minimum: 30 }),
  mediumKbps: Type.Integer({ minimum: 30 }),
  highKbps: Type.Integer({ minimum: 30 }),
  screenKbps: Type.Integer({ minimum: 30 }),
  screenFps: Type.Integer({ minimum: 1, maximum: 60 }),
});
export type VideoLayers = Static<typeof VideoLayers>;

/** `/assets/config/config.json` (booking spec §7). */
export const ClientConfig = Type.Object({
  internalBaseUrl: Type.String(),
  externalBaseUrl: Type.String(),
  publicInfoBaseUrl: Type.String(),
  roomBaseUrl: Type.String(),
  selfRegistrationBaseUrl: Type.String(),
  chatBaseUrl: Type.String(),
  mediaBaseUrl: Type.String(),
  iceServers: Type.Array(Type.Object({ urls: Type.Union([Type.String(), Type.Array(Type.String())]), username: Type.Optional(Type.String()), credential: Type.Optional(Type.String()) })),
  releaseVersion: Type.String(),
  sessionMinutes: Type.Integer(),
  environment: Type.String(),
  /** Days a call rating's comment is kept before the retention job deletes it (the personal-data page says so). */
  ratingCommentDays: Type.Integer(),
  /** Days an accessibility report (with any contact detail) is kept before the retention job deletes it. */
  accessibilityReportDays: Type.Integer(),
  /** The embedded test IdP logs people in: every page shows that this is a test system. */
  testIdp: Type.Boolean(),
  /** Simulcast and screen-share layers the web sends (and budgets its downlink with). */
  videoLayers: VideoLayers,
  /** The languages the external screens are offered in (`WEB_LANGUAGES`), Swedish first; see `languages.ts`. */
  languages: Type.Array(Type.String()),
});
export type ClientConfig = Static<typeof ClientConfig>;
