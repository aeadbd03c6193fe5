import {
  DISPLAY_NAME_REQUIRED,
  PUBLIC_ACCESS_FIELD_TEXTS,
  normaliseDisplayName,
  type PublicAccessField,
} from '@videomote/contract/public-access';
import type { Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import { randomToken } from '../../platform/crypto.ts';
import { AppError, validationError } from '../../platform/errors.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { findMeetingByRoomId, type MeetingSummary } from '../meetings/meeting-membership.ts';
import { publicAccessRefusal } from './public-access.rules.ts';

// An unknown link and a conversation meeting's link answer the same, so the link cannot probe for meetings.
const STATUS_BY_FIELD = { roomId: 'NotFound', startTime: 'Forbidden', endTime: 'Gone' } as const;

const refusal = (field: PublicAccessField) =>
  new AppError(STATUS_BY_FIELD[field], PUBLIC_ACCESS_FIELD_TEXTS[field], [{ fields: [field], message: PUBLIC_ACCESS_FIELD_TEXTS[field] }]);

/** The webcast behind a public room link, if an anonymous visitor may enter it now; else the failing field. */
export async function openWebcastByRoom(db: Queryable, roomId: string, now: Date): Promise<MeetingSummary> {
  const meeting = await findMeetingByRoomId(db, roomId);
  // Only information meetings are public: a conversation meeting's room is as unknown as a mistyped link.
  if (!meeting || meeting.type !== 1) throw refusal('roomId');
  const field = publicAccessRefusal(meeting, now);
  if (field) throw refusal(field);
  return meeting;
}

/** The session user of an anonymous visitor: a display name and the one webcast, no roles, no features. */
export function visitorFor(meetingId: string, displayName: unknown): SessionUser {
  const name = normaliseDisplayName(displayName);
  if (!name) throw validationError([{ fields: ['displayName'], message: DISPLAY_NAME_REQUIRED }]);
  return anonymousSessionUser({ subject: `anonymous:${randomToken(12)}`, firstName: name, meetingId });
}
