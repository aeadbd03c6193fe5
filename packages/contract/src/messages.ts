import { Type, type Static } from 'typebox';

/** System message types as the spec numbers them (booking spec §3): Info 0, Warn 1, Error 2. */
export const MessageType = { Info: 0, Warn: 1, Error: 2 } as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

/** A system message (booking spec §3): shown as an alert to the audiences whose flag is set. */
export const SystemMessage = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]),
  value: Type.String(),
  /** ISO 8601 with offset. */
  startTime: Type.String(),
  endTime: Type.String(),
  /** E: external users (e-ID) and anonymous webcast visitors. */
  showExternal: Type.Boolean(),
  /** I: agency staff. */
  showInternal: Type.Boolean(),
  /** L: suppliers, i.e. KA and MSFA users. */
  showKauser: Type.Boolean(),
  /** Grows by one with every saved change; a PUT must send the version it edited (stale → 409, nothing lost). */
  version: Type.Number(),
});
export type SystemMessage = Static<typeof SystemMessage>;

/**
 * What `POST /api/message` and `PUT /api/message` take. Every field is optional in the schema so that a missing
 * one gets its own Swedish message from the service instead of a generic schema error. Null comes first in the
 * string unions because the validator coerces types: tried after String, a null would turn into ''.
 */
export const SystemMessageInput = Type.Object({
  id: Type.Optional(Type.Union([Type.Null(), Type.String()])),
  /** Checked by the service (0, 1 or 2): the validator's type coercion would turn a null into 0 and a 0 into null. */
  type: Type.Optional(Type.Unknown()),
  value: Type.Optional(Type.Union([Type.Null(), Type.String()])),
  startTime: Type.Optional(Type.Union([Type.Null(), Type.String()])),
  endTime: Type.Optional(Type.Union([Type.Null(), Type.String()])),
  showExternal: Type.Optional(Type.Boolean()),
  showInternal: Type.Optional(Type.Boolean()),
  showKauser: Type.Optional(Type.Boolean()),
  /** Required by PUT: the version the admin edited. Checked by the service, like `type`, to avoid coercion. */
  version: Type.Optional(Type.Unknown()),
});
export type SystemMessageInput = Static<typeof SystemMessageInput>;

export const MESSAGE_MAX_LENGTH = 1000;

/** The form's Swedish texts; the server answers with the same ones (field ids: type, value, startTime, endTime). */
export const MESSAGE_ERRORS = {
  type: 'Du behöver välja en typ',
  value: 'Du behöver ange ett meddelande',
  valueTooLong: `Meddelandet får vara högst ${MESSAGE_MAX_LENGTH} tecken`,
  startDate: 'Du behöver ange ett startdatum',
  startTime: 'Du behöver ange en starttid',
  endDate: 'Du behöver ange ett slutdatum',
  endTime: 'Du behöver ange en sluttid',
  endBeforeStart: 'Sluttiden måste vara senare än starttiden',
  notFound: 'Meddelandet finns inte',
  version: 'Meddelandets version saknas. Ladda om sidan och försök igen.',
  conflict: 'Meddelandet har ändrats av någon annan sedan du öppnade det. Ladda om meddelandet för att se de senaste uppgifterna.',
} as const;
