import crypto from 'node:crypto';
import { fromLocal, localDate } from '@videomote/contract/meeting-rules';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import type { Db } from '../platform/db.ts';
import type { PinCrypto } from '../platform/crypto.ts';
import { MEETING_START_OF_FIRST_PARAM } from '../modules/meetings/meetings.repository.ts';
import { personaByKey, type Persona } from '../modules/identity/personas.ts';
import { storedSignupCode } from '../modules/meetings/signup-code.ts';

export interface FixtureParticipant {
  persona?: Persona['key'];
  afId?: string | null;
  pin?: string | null;
  displayName?: string;
  role: ParticipantRole;
  isAdmin?: boolean;
}

/**
 * The times of a meeting running at `now`: from `before` ms earlier to `after` ms later, but kept within `now`'s day
 * in Stockholm, because the booking form holds one date with a start and an end time: a test that edits a meeting
 * made across midnight was refused (start after end) when CI ran in the hour before it. In a day's last minute the
 * end falls before `now`: a test then meets a meeting that has just ended.
 */
export function runningMeetingTimes(now: Date, before = 10 * 60_000, after = 3_600_000): { start: Date; end: Date } {
  const day = localDate(now);
  const dayStart = fromLocal(day, '00:00')!.getTime();
  const dayEnd = fromLocal(day, '23:59')!.getTime();
  return { start: new Date(Math.max(now.getTime() - before, dayStart)), end: new Date(Math.min(now.getTime() + after, dayEnd)) };
}

/** Inserts a meeting straight into the real database, for tests of modules that read meetings. */
export async function insertMeeting(
  db: Db,
  pins: PinCrypto,
  m: {
    title?: string;
    type?: 0 | 1;
    start: Date | string;
    end: Date | string;
    participants: FixtureParticipant[];
    roomId?: string;
    /** Sign-up on, with this code (signup-code.ts's shape). */
    signupCode?: string;
  },
): Promise<{ id: string; roomId: string; participantIds: string[] }> {
  const roomId = m.roomId ?? crypto.randomBytes(18).toString('base64url');
  const signup = m.signupCode ? storedSignupCode(m.signupCode, pins) : null;
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO meetings (title, type, start_time, end_time, created_by, room_id, signup_code_hash, signup_code_encrypted)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [m.title ?? 'Testmöte', m.type ?? 0, new Date(m.start), new Date(m.end), 'test', roomId, signup?.hash ?? null, signup?.encrypted ?? null],
  );
  const participantIds: string[] = [];
  for (const [i, p] of m.participants.entries()) {
    const persona = p.persona ? personaByKey(p.persona) : null;
    const afId = p.afId ?? persona?.afId ?? null;
    const pin = p.pin ?? persona?.pin ?? null;
    const displayName = p.displayName ?? (persona ? `${persona.firstName} ${persona.lastName}` : 'Deltagare');
    const [pr] = await db.query<{ id: string }>(
      `INSERT INTO meeting_participants (meeting_id, meeting_start, position, role, display_name, af_id, pin_hash, pin_encrypted, is_admin)
       VALUES ($1, ${MEETING_START_OF_FIRST_PARAM}, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [row!.id, i, p.role, displayName, afId, pin ? pins.hash(pin) : null, pin ? pins.encrypt(pin) : null, p.isAdmin ?? false],
    );
    participantIds.push(pr!.id);
  }
  return { id: row!.id, roomId, participantIds };
}

/** The built-in Grupper table as migrations 009 and 019 seed it: reset() empties every table, seeds included. */
export async function seedBuiltInRoleGrants(db: Db): Promise<void> {
  await db.query(`INSERT INTO role_grants (role, features, is_admin) VALUES
    ('VIDAdmin', ARRAY['EditMeeting','InternalMeeting','ScreenShare'], true),
    ('VIDMedarbetare', ARRAY['EditMeeting','InternalMeeting','ScreenShare'], false),
    ('KompletterandeAktör', ARRAY['EditMeeting','ScreenShare'], false),
    ('FriståendeAktör', ARRAY['EditMeeting','ScreenShare'], false),
    ('Participant', ARRAY['ScreenShare'], false)`);
}
