import { MISSING_DATA, TROUBLESHOOT_ERRORS, type LiveSource, type TroubleshootResult } from '@videomote/contract/admin';
import { ROLE_LABELS } from '@videomote/contract/participant-roles';
import type { Queryable } from '../../platform/db.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { findMeeting, findMeetingByRoomId, listMembers, meetingFactsJson, type MeetingSummary } from '../meetings/meeting-membership.ts';
import { meetingRatings } from '../polls/polls.service.ts';
import { recentMeetingErrors } from './meeting-errors.ts';

const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ROOM_IN_LINK = /\/publicaccess\/([A-Za-z0-9_-]{16,64})/;
const ROOM_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** A meeting id, a meeting link (/meetings/{id}/...), a public room link (/publicaccess/{roomId}) or a bare room id. */
export async function findMeetingByText(db: Queryable, text: string): Promise<MeetingSummary | null> {
  const q = text.trim();
  const room = ROOM_IN_LINK.exec(q)?.[1] ?? (ROOM_ID.test(q) && !UUID_IN_TEXT.test(q) ? q : null);
  if (room) return findMeetingByRoomId(db, room);
  const id = UUID_IN_TEXT.exec(q)?.[0];
  return id ? findMeeting(db, id.toLowerCase()) : null;
}

/** What the live modules (chat, media) can say about a meeting; each is optional and says so when absent. */
export interface LiveProbes {
  chat?: (meetingId: string) => Promise<LiveSource> | LiveSource;
  media?: (meetingId: string) => Promise<LiveSource> | LiveSource;
}

const missing: LiveSource = { available: false, reason: MISSING_DATA };

async function probe(fn: LiveProbes['chat'], meetingId: string): Promise<LiveSource> {
  if (!fn) return missing;
  try {
    return await fn(meetingId);
  } catch {
    return { available: false, reason: `${MISSING_DATA} (kunde inte läsas)` };
  }
}

export function meetingState(m: MeetingSummary, now: Date): 'upcoming' | 'ongoing' | 'ended' {
  if (now < m.startTime) return 'upcoming';
  return now < m.endTime ? 'ongoing' : 'ended';
}

/**
 * Felsökning: everything an administrator may see about one meeting. Names and roles, never personnummer
 * (MemberRecord does not even carry them).
 */
export async function troubleshoot(db: Queryable, now: Date, text: string | undefined, probes: LiveProbes): Promise<TroubleshootResult> {
  if (!text?.trim()) throw validationError([{ fields: ['q'], message: TROUBLESHOOT_ERRORS.empty }]);
  const meeting = await findMeetingByText(db, text);
  if (!meeting) throw notFound(TROUBLESHOOT_ERRORS.notFound);
  const [members, ratings, errors, chat, media] = await Promise.all([
    listMembers(db, meeting.id),
    meetingRatings(db, meeting.id),
    recentMeetingErrors(db, meeting.id),
    probe(probes.chat, meeting.id),
    probe(probes.media, meeting.id),
  ]);
  return {
    meeting: { ...meetingFactsJson(meeting), state: meetingState(meeting, now) },
    participants: members.map((m) => ({
      id: m.id,
      displayName: m.displayName,
      role: m.role,
      roleLabel: ROLE_LABELS[m.role] ?? m.role,
      isAdmin: m.isAdmin,
      kind: m.afId ? 'staff' : 'external',
    })),
    chat,
    media,
    ratings,
    recentErrors: { available: true, items: errors },
  };
}
