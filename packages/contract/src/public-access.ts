import { Type, type Static } from 'typebox';

/**
 * Anonymous entry to an information meeting (webcast) by its room link (booking spec §2 public access, §5, §8).
 *
 * `GET /api/meeting/getidbyroomid/{roomId}` answers `{ data: { meetingId } }`, or an error whose first item names the
 * failing field: `roomId` (unknown link, or a conversation meeting's room, which is never public), `startTime`
 * (the webcast is not today) or `endTime` (it has ended).
 * `POST /api/publicaccess/{roomId}` with `{ data: { displayName } }` starts an anonymous session scoped to that one
 * webcast and answers `{ data: { meetingId, displayName } }`.
 */
export const RoomParams = Type.Object({ roomId: Type.String({ maxLength: 200 }) });

export const MeetingIdByRoom = Type.Object({ meetingId: Type.String() });
export type MeetingIdByRoom = Static<typeof MeetingIdByRoom>;

export const PublicAccessBody = Type.Object({
  data: Type.Object({ displayName: Type.Optional(Type.String({ maxLength: 1000 })) }),
});
export type PublicAccessRequest = Static<typeof PublicAccessBody>['data'];

export const PublicAccessSession = Type.Object({ meetingId: Type.String(), displayName: Type.String() });
export type PublicAccessSession = Static<typeof PublicAccessSession>;

export const DISPLAY_NAME_MAX = 12;

export type PublicAccessField = 'roomId' | 'startTime' | 'endTime';

/** The text shown with each failing field's image (spec §8). */
export const PUBLIC_ACCESS_FIELD_TEXTS: Record<PublicAccessField, string> = {
  roomId: 'Länken fungerar inte',
  startTime: 'Mötet är inte idag',
  endTime: 'Mötet har redan varit',
};

export const PUBLIC_ACCESS_FALLBACK_MESSAGE = 'Kontrollera länken och testa igen.';
export const DISPLAY_NAME_REQUIRED = 'Namn är obligatoriskt';

/** Cookie telling the web that this browser is in the webcast variant (spec §3 authentication variant). */
export const AUTHENTICATION_VARIANT_COOKIE = 'authenticationvariant';

/** The same rule on both sides: trimmed, 1 to 12 characters, no control characters. Null when invalid. */
export function normaliseDisplayName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // Control characters and lone surrogates (not encodable as UTF-8, so not storable) are dropped.
  const name = value.replace(/[\u0000-\u001f\u007f]|\p{Cs}/gu, '').replace(/\s+/g, ' ').trim();
  if (!name || [...name].length > DISPLAY_NAME_MAX) return null;
  return name;
}

/** Browser storage key of the visitor's chosen name, read back by the conference (conference spec §3). Plain text, not JSON. */
export const DISPLAY_NAME_STORAGE_KEY = 'displayName';
