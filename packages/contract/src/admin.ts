import { Type, type Static } from 'typebox';
import { MeetingFacts } from './meetings.ts';

/** Grupper: what one identity role grants at login. Stored in the database, editable by admins. */
export const RoleGrant = Type.Object({
  role: Type.String(),
  features: Type.Array(Type.String()),
  isAdmin: Type.Boolean(),
  /** The user level the role gives (Intern, KA, MSFA or None); the highest wins when a user has several. */
  userLevel: Type.String(),
});
export type RoleGrant = Static<typeof RoleGrant>;

export const RoleGrantsUpdate = Type.Object({
  grants: Type.Array(
    Type.Object({
      role: Type.String(),
      features: Type.Array(Type.String()),
      isAdmin: Type.Boolean(),
    }),
  ),
});
export type RoleGrantsUpdate = Static<typeof RoleGrantsUpdate>;

/** `GET|PUT /api/admin/groups` answer: every role's grants plus the roles and features there are. */
export const GroupsResponse = Type.Object({
  grants: Type.Array(RoleGrant),
  roles: Type.Array(Type.String()),
  features: Type.Array(Type.String()),
});
export type GroupsResponse = Static<typeof GroupsResponse>;

export const GROUP_ERRORS = {
  unknownRole: 'Okänd roll',
  unknownFeature: 'Okänd funktion',
  lastAdmin: 'Minst en roll måste ge administratörsbehörighet',
} as const;

/** Feature flags an administrator switches in AppSettings; each is read by the code named in its description. */
export const FeatureFlagKeys = ['callRating', 'systemMessages'] as const;
export type FeatureFlagKey = (typeof FeatureFlagKeys)[number];

export const FEATURE_FLAG_TEXTS: Record<FeatureFlagKey, { label: string; description: string }> = {
  callRating: { label: 'Betygsättning av samtal', description: 'Visa dialogen för att betygsätta samtalskvaliteten när en deltagare lämnar ett möte.' },
  systemMessages: { label: 'Systemmeddelanden', description: 'Visa aktiva systemmeddelanden för användarna.' },
};

export const FeatureFlags = Type.Record(Type.String(), Type.Boolean());
export type FeatureFlags = Record<FeatureFlagKey, boolean>;

/** One line of the effective configuration; secrets are masked by the server before they leave it. */
export const SettingEntry = Type.Object({
  key: Type.String(),
  env: Type.String(),
  value: Type.String(),
  secret: Type.Boolean(),
  /** Whether the value comes from the environment or is the built-in default. */
  source: Type.Union([Type.Literal('env'), Type.Literal('default')]),
});
export type SettingEntry = Static<typeof SettingEntry>;

const FlagText = Type.Object({ label: Type.String(), description: Type.String() });

export const AppSettings = Type.Object({
  settings: Type.Array(SettingEntry),
  flags: FeatureFlags,
  flagTexts: Type.Record(Type.String(), FlagText),
});
export type AppSettings = {
  settings: SettingEntry[];
  flags: FeatureFlags;
  flagTexts: Record<FeatureFlagKey, { label: string; description: string }>;
};

export const FlagsUpdate = Type.Object({ flags: Type.Record(Type.String(), Type.Boolean()) });
/** `PUT /api/admin/appsettings/flags` answer: every switch as now stored. */
export const FlagsAnswer = Type.Object({ flags: FeatureFlags });

export const FLAG_ERRORS = { unknown: 'Okänd inställning' } as const;

/** Felsökning: a meeting found by id or room link, with what the modules know about it right now. */
export const TroubleshootParticipant = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  role: Type.String(),
  roleLabel: Type.String(),
  isAdmin: Type.Boolean(),
  kind: Type.Union([Type.Literal('staff'), Type.Literal('external')]),
});
export type TroubleshootParticipant = Static<typeof TroubleshootParticipant>;

export const TroubleshootConnection = Type.Object({
  displayName: Type.String(),
  participantId: Type.Union([Type.String(), Type.Null()]),
  detail: Type.String(),
});
export type TroubleshootConnection = Static<typeof TroubleshootConnection>;

const Unavailable = Type.Object({ available: Type.Literal(false), reason: Type.String() });

/** A source of live facts (chat, media): either what it reports, or why it cannot. */
export const LiveSource = Type.Union([
  Type.Object({ available: Type.Literal(true), connections: Type.Array(TroubleshootConnection), state: Type.Optional(Type.String()) }),
  Unavailable,
]);
export type LiveSource = Static<typeof LiveSource>;

/**
 * Felsökning's recent errors: what went wrong in a meeting, from the server's media and chat modules and from the
 * participants' browsers. Codes and short texts only: never a name, a personnummer or a message's content.
 */
export const MeetingErrorSources = ['media', 'chat', 'client'] as const;
export type MeetingErrorSource = (typeof MeetingErrorSources)[number];

export const MeetingErrorItem = Type.Object({
  at: Type.String(),
  source: Type.Union([Type.Literal('media'), Type.Literal('chat'), Type.Literal('client')]),
  code: Type.String(),
  message: Type.String(),
});
export type MeetingErrorItem = Static<typeof MeetingErrorItem>;

export const TroubleshootResult = Type.Object({
  meeting: Type.Object({
    ...MeetingFacts.properties,
    state: Type.Union([Type.Literal('upcoming'), Type.Literal('ongoing'), Type.Literal('ended')]),
  }),
  participants: Type.Array(TroubleshootParticipant),
  chat: LiveSource,
  media: LiveSource,
  /** The meeting's call ratings: anonymous, with the comments people chose to write (newest first, at most 50). */
  ratings: Type.Object({
    count: Type.Integer(),
    average: Type.Union([Type.Number(), Type.Null()]),
    comments: Type.Array(Type.Object({ at: Type.String(), callQuality: Type.Integer(), comment: Type.String() })),
  }),
  /** The meeting's most recent errors, newest first (at most RECENT_ERRORS_LIMIT). */
  recentErrors: Type.Union([Unavailable, Type.Object({ available: Type.Literal(true), items: Type.Array(MeetingErrorItem) })]),
});
export type TroubleshootResult = Static<typeof TroubleshootResult>;

export const RECENT_ERRORS_LIMIT = 50;
/** Labels Felsökning shows for the sources. */
export const ERROR_SOURCE_LABELS: Record<MeetingErrorSource, string> = { media: 'Media', chat: 'Chatt', client: 'Webbläsare' };

/** The call errors a browser may report: the conference page's error keys (conference spec §8), nothing free-form. */
export const ClientErrorCodes = [
  'OT_HARDWARE_UNAVAILABLE',
  'OT_USER_MEDIA_ACCESS_DENIED',
  'networkDisconnected',
  'connectionFailed',
  'PUBLISHER_RESTARTING',
  'PUBLISHER_LOSS_RATIO_EXCEEDED',
  'SUBSCRIBE_FAILED',
  'SCREEN_SHARE_FAILED',
  'FORCE_MUTE_FAILED',
  'SOMETHING_ELSE',
] as const;
export type ClientErrorCode = (typeof ClientErrorCodes)[number];
export const CLIENT_ERROR_MESSAGE_MAX = 200;

/**
 * `POST /api/meetingerror`: a participant's browser reports a call error of that meeting. Every field optional in
 * the schema so each problem gets its own Swedish message from the service (like the other forms).
 */
export const MeetingErrorReport = Type.Object({
  meetingId: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 100 })])),
  code: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 100 })])),
  message: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 2000 })])),
});
export type MeetingErrorReport = Static<typeof MeetingErrorReport>;
/** `POST /api/meetingerror` answer: the report was kept. */
export const MeetingErrorReceipt = Type.Object({ recorded: Type.Literal(true) });

export const MEETING_ERROR_ERRORS = {
  meetingId: 'Mötet finns inte',
  code: 'Okänd felkod',
  messageTooLong: `Feltexten får vara högst ${CLIENT_ERROR_MESSAGE_MAX} tecken`,
  notParticipant: 'Du kan bara rapportera fel i möten som du deltar i',
} as const;

export const TroubleshootQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 500 })) });

export const TROUBLESHOOT_ERRORS = {
  empty: 'Ange ett mötes-id eller en möteslänk',
  notFound: 'Inget möte hittades för den angivna länken eller id:t',
} as const;

export const MISSING_DATA = 'uppgift saknas';
