import type { ErrorItem } from '@videomote/contract/errors';
import type { MeetingRequest, ParticipantRequest } from '@videomote/contract/meetings';
import { PIN_MASK_PATTERN } from '@videomote/contract/meetings';
import {
  FIELD,
  MEETING_MESSAGES,
  defaultRoleFor,
  isAdminGrantable,
  isStaffRole,
  localDate,
  localTime,
  mayBookInternal,
  roleOptions,
  validateMeetingDraft,
  type DraftParticipant,
} from '@videomote/contract/meeting-rules';
import { ParticipantRoles } from '@videomote/contract/participant-roles';
import { AppError, forbidden, validationError } from '../../platform/errors.ts';
import type { SessionUser } from '../../platform/session.ts';
import type { MeetingRow, ParticipantRow, ParticipantWrite } from './meetings.repository.ts';

export const SIGNUP_SETTING_MESSAGES = {
  selfRegisteredNotAdmin: 'En deltagare som har registrerat sig själv kan inte vara administratör för mötet.',
  signupOff: 'Självregistrering är avstängd för mötet. Slå på den när du ändrar mötet för att få en länk.',
} as const;

/**
 * The named steps of turning a booking form into rows (MeetingsService.plan): each a pure rule with its own unit
 * tests (meeting-plan.test.ts). Only the directory look-up and the personnummer encryption stay in the service.
 */

/** An ISO 8601 instant with an offset, as the form sends it; anything else is null. */
export function parseInstant(s: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(s)) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Step 1: the meeting's type and times. KA users do not choose the type (spec §6); a malformed instant stops here. */
export function meetingTimes(user: Pick<SessionUser, 'userLevel'>, req: MeetingRequest, existing: Pick<MeetingRow, 'type'> | null) {
  const type: 0 | 1 = req.type === 1 ? 1 : 0;
  if (user.userLevel === 'KA' && type !== (existing ? (existing.type === 1 ? 1 : 0) : 0)) throw forbidden('Du kan inte välja mötestyp');
  const start = req.startTime ? parseInstant(req.startTime) : null;
  const end = req.endTime ? parseInstant(req.endTime) : null;
  // Only a broken client sends a malformed timestamp: say which one and stop there.
  const malformed: ErrorItem[] = [];
  if (req.startTime && !start) malformed.push({ fields: [FIELD.startTime], message: MEETING_MESSAGES.fieldInvalid });
  if (req.endTime && !end) malformed.push({ fields: [FIELD.endTime], message: MEETING_MESSAGES.fieldInvalid });
  if (malformed.length) throw validationError(malformed);
  return { type, start, end };
}

export const isUserParticipant = (p: Pick<ParticipantRow, 'af_id' | 'pin_hash'>, user: Pick<SessionUser, 'afId' | 'pinHash'>) =>
  (!!user.afId && p.af_id === user.afId) || (!!user.pinHash && p.pin_hash === user.pinHash);

/**
 * Step 2: the booker's own card. Flagged by the form, else found by identity, else added first: the current user
 * is always in the meeting, always as admin.
 */
export function withBookerCard(
  participants: ParticipantRequest[],
  user: Pick<SessionUser, 'afId' | 'pinHash' | 'userLevel'>,
  type: 0 | 1,
  existingById: Map<string, ParticipantRow>,
): { list: ParticipantRequest[]; meIndex: number } {
  let list = [...participants];
  let meIndex = list.findIndex((p) => p.currentUser === true);
  if (meIndex < 0) {
    meIndex = list.findIndex((p) => {
      const stored = p.id ? existingById.get(p.id) : undefined;
      return (stored ? isUserParticipant(stored, user) : false) || (!!user.afId && p.afId === user.afId);
    });
  }
  if (meIndex < 0 && list.length) {
    list = [{ role: defaultRoleFor(type, user.userLevel), currentUser: true, isAdmin: true }, ...list];
    meIndex = 0;
  }
  return { list, meIndex };
}

/** Step 3: the form's own rules (contract/meeting-rules.ts), an end on another day, and a started meeting's times. */
export function draftErrors(input: {
  req: MeetingRequest;
  list: ParticipantRequest[];
  meIndex: number;
  start: Date | null;
  end: Date | null;
  existing: Pick<MeetingRow, 'start_time' | 'end_time'> | null;
  existingById: Map<string, ParticipantRow>;
  copyById: Map<string, ParticipantRow>;
  now: Date;
}): ErrorItem[] {
  const { req, list, meIndex, start, end, existing, existingById, copyById, now } = input;
  const started = !!existing && new Date(existing.start_time).getTime() <= now.getTime();
  const drafts: DraftParticipant[] = list.map((p, i) => {
    const stored = p.id ? existingById.get(p.id) : undefined;
    const copied = p.copiedFromParticipantId ? copyById.get(p.copiedFromParticipantId) : undefined;
    return {
      role: p.role,
      displayName: p.displayName,
      pin: p.pin && !PIN_MASK_PATTERN.test(p.pin) ? p.pin : null,
      afId: p.afId,
      // Spec §5: the number is required only for a participant without an id (a saved one keeps what it has,
      // even after retention has cleared it); a copy needs one from its source.
      hasStoredPin: !!stored || !!copied?.pin_encrypted,
      currentUser: i === meIndex,
      editMode: p.editMode === true,
    };
  });
  const errors = validateMeetingDraft(
    { title: req.title, date: start ? localDate(start) : null, startTime: start ? localTime(start) : null, endTime: end ? localTime(end) : null, participants: drafts },
    { now, started },
  );
  // The form sends end as the same date plus the end time; an end on another day is refused like a bad time.
  if (!errors.length && start && end && localDate(start) !== localDate(end) && end.getTime() > start.getTime()) {
    errors.push({ fields: [FIELD.endTime], message: MEETING_MESSAGES.fieldInvalid });
  }
  if (started && existing && start && end) {
    // Minute precision: the form holds HH:mm, so a meeting booked with seconds must not look moved.
    const minute = (d: Date | string) => Math.floor(new Date(d).getTime() / 60_000);
    if (minute(start) !== minute(existing.start_time) || minute(end) !== minute(existing.end_time)) {
      errors.push({ fields: [FIELD.date], message: MEETING_MESSAGES.startedTimesLocked });
    }
  }
  return errors;
}

/**
 * Step 4, per participant: the role this card may have. An error for the form (the card is then skipped), or a
 * 403 for a role the booker may not give at all.
 */
export function roleFor(
  p: ParticipantRequest,
  i: number,
  ctx: { user: Pick<SessionUser, 'userLevel' | 'features'>; type: 0 | 1; isMe: boolean; stored: ParticipantRow | undefined },
): { role: string; keptRole: boolean } | { error: ErrorItem } | null {
  const { user, type, isMe, stored } = ctx;
  const role = isMe && !p.role ? defaultRoleFor(type, user.userLevel) : (p.role ?? '');
  if (!(ParticipantRoles as readonly string[]).includes(role)) return role ? { error: { fields: [FIELD.role(i)], message: MEETING_MESSAGES.roleRequired } } : null;
  const keptRole = !!stored && stored.role === role;
  if (!keptRole && role !== 'None') {
    if (!roleOptions(type, 'Intern').includes(role as never)) return { error: { fields: [FIELD.role(i)], message: MEETING_MESSAGES.roleNotForType } };
    // An internal meeting (a colleague invited) needs the InternalMeeting feature (Grupper); said at the field.
    if (!isMe && isStaffRole(role) && !mayBookInternal(user.features) && roleOptions(type, user.userLevel).includes(role as never)) {
      return { error: { fields: [FIELD.role(i)], message: MEETING_MESSAGES.internalMeetingNotAllowed } };
    }
    if (!roleOptions(type, user.userLevel, user.features).includes(role as never) && !(isMe && role === defaultRoleFor(type, user.userLevel))) {
      throw forbidden('Du kan inte välja den rollen');
    }
  }
  return { role, keptRole };
}

/**
 * Step 5, per participant: whether the card is a meeting admin. Only contractor, employee and internal presenter
 * can be made one; the current user always is (spec §5).
 */
export function wantsAdmin(p: ParticipantRequest, i: number, ctx: { role: string; keptRole: boolean; isMe: boolean; stored: ParticipantRow | undefined }): boolean {
  const { role, keptRole, isMe, stored } = ctx;
  const admin = isMe || p.isAdmin === true;
  // SECURITY: self-registration is open to whoever holds the link; it must never lead to moderation powers.
  if (admin && stored?.self_registered) {
    throw new AppError('Forbidden', SIGNUP_SETTING_MESSAGES.selfRegisteredNotAdmin, [
      { fields: [FIELD.isAdmin(i)], message: SIGNUP_SETTING_MESSAGES.selfRegisteredNotAdmin },
    ]);
  }
  if (admin && !isMe && !isAdminGrantable(role) && !(stored?.is_admin && keptRole)) {
    throw forbidden('Administratör kan bara vara leverantör, anställd eller intern presentatör');
  }
  return admin;
}

/** Step 6: one person once: the same employee or the same personnummer twice is an error at the second card. */
export function duplicateErrors(rows: { index: number; write: Pick<ParticipantWrite, 'afId' | 'pinHash'> }[]): ErrorItem[] {
  const errors: ErrorItem[] = [];
  const seenAf = new Set<string>();
  const seenPin = new Set<string>();
  for (const { index, write } of rows) {
    if (write.afId) {
      if (seenAf.has(write.afId)) errors.push({ fields: [FIELD.afId(index)], message: MEETING_MESSAGES.fieldInvalid });
      seenAf.add(write.afId);
    }
    if (write.pinHash) {
      if (seenPin.has(write.pinHash)) errors.push({ fields: [FIELD.pin(index)], message: MEETING_MESSAGES.fieldInvalid });
      seenPin.add(write.pinHash);
    }
  }
  return errors;
}

/** The same error twice (two rules saying one thing about one field) is shown once. */
export function dedupe(errors: ErrorItem[]): ErrorItem[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.fields.join(',')}|${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
