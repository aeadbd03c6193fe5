import type { ErrorItem } from './errors.ts';
import { Features, type Feature, type UserLevel } from './identity.ts';
import { checkPersonnummer, pinErrorMessage } from './personnummer.ts';
import { ADMIN_GRANTABLE_ROLES, CAPTIONER_ROLE, PRESENTER_ROLES, STAFF_ROLES, STAGE_KEPT_ROLES, type ParticipantRole } from './participant-roles.ts';
import { MEETING_MAX_PARTICIPANTS, MEETING_TIME_ZONE, WEBCAST_MAX_PRESENTERS } from './meetings.ts';
import { offsetByRule } from './stockholm-offset.ts';

/**
 * Text interpreters (Skrivtolk) per meeting: long assignments are shared by two who take turns (the norm for
 * skrivtolkning), more than two only splits the captions between typists.
 */
export const MAX_TEXT_INTERPRETERS = 2;

/**
 * The booking rules of spec §4–§6 that both the form and the server apply, so the form shows exactly what the
 * server would answer, and the server (which is the check) says it in the same words with the same field ids.
 */
export const MEETING_MESSAGES = {
  titleRequired: 'Du behöver ange en rubrik',
  dateRequired: 'Du behöver ange ett datum',
  startRequired: 'Du behöver ange när mötet startar',
  endRequired: 'Du behöver ange när mötet slutar',
  participantsUnsaved: 'Alla deltagare måste sparas',
  startInPast: 'Starttid får inte vara ett tidigare datum än idag',
  startAfterEnd: 'Starttiden för ett möte får inte vara en senare tid än sluttiden',
  roleRequired: 'Du måste välja en roll',
  fieldInvalid: 'Fältet är ej korrekt ifyllt',
  pinRequired: 'Du behöver ange ett personnummer',
  started: 'Mötet har startat',
  startedTimesLocked: 'Mötet har startat. Datum och tider kan inte ändras.',
  tooManyParticipants: `Ett videomöte kan ha högst ${MEETING_MAX_PARTICIPANTS} deltagare`,
  tooManyPresenters: `Ett informationsmöte kan ha högst ${WEBCAST_MAX_PRESENTERS} presentatörer`,
  roleNotForType: 'Rollen kan inte väljas för den här mötestypen',
  tooManyTextInterpreters: `Ett möte kan ha högst ${MAX_TEXT_INTERPRETERS} skrivtolkar`,
  internalMeetingNotAllowed: 'Du har inte behörighet att boka interna möten, det vill säga att bjuda in medarbetare',
  conflict: 'Mötet har ändrats av någon annan sedan du öppnade det. Ladda om mötet för att se de senaste uppgifterna.',
  errorSummaryHeading: 'Komplettera följande uppgifter för att boka mötet',
} as const;

/** Field ids shared by the server's error items and the form's inputs (the first field of an item is focused). */
export const FIELD = {
  title: 'title',
  date: 'date',
  startTime: 'startTime',
  endTime: 'endTime',
  participants: 'participants',
  type: 'type',
  role: (i: number) => `participant-${i}-role`,
  displayName: (i: number) => `participant-${i}-displayName`,
  pin: (i: number) => `participant-${i}-pin`,
  afId: (i: number) => `participant-${i}-afId`,
  isAdmin: (i: number) => `participant-${i}-isAdmin`,
} as const;

/**
 * Role options (spec §6): per meeting type, without the staff-only roles for KA and MSFA users. Beyond the spec's
 * list, a conversation meeting can book a sign-language interpreter (Teckentolk, a role of spec §3): the stage
 * keeps that person in view, and without the option nobody could book one. Both meeting types can book a text
 * interpreter (Skrivtolk), whose typed captions everybody sees, a webcast's audience included; in a webcast the
 * text interpreter listens and types but does not present (no camera, not counted among the presenters).
 *
 * An internal meeting is one that invites agency colleagues (the staff roles, found in the employee directory);
 * booking one needs the InternalMeeting feature, which Grupper grants per membership role. Without it the staff
 * roles are not offered for other participants (the booker's own card keeps its role).
 */
export function roleOptions(type: 0 | 1, level: UserLevel, features: readonly string[] = Features): ParticipantRole[] {
  const external = level === 'KA' || level === 'MSFA';
  const all: ParticipantRole[] =
    type === 1
      ? external ? ['PresenterExternal', 'TextInterpreter'] : ['PresenterExternal', 'PresenterInternal', 'TextInterpreter']
      : (['JobSeeker', 'EmploymentOfficer', 'Interpreter', 'SignLanguageInterpreter', 'TextInterpreter', 'ExternalParticipant', 'PrivateContractor'] as ParticipantRole[]).filter(
          (r) => !external || r !== 'EmploymentOfficer',
        );
  return mayBookInternal(features) ? all : all.filter((r) => !isStaffRole(r));
}

export const mayBookInternal = (features: readonly string[]) => features.includes('InternalMeeting' satisfies Feature);

/** The current user's role after a type change (spec §4 table). */
export function defaultRoleFor(type: 0 | 1, level: UserLevel): ParticipantRole {
  const external = level === 'KA' || level === 'MSFA';
  if (type === 1) return external ? 'PresenterExternal' : 'PresenterInternal';
  return external ? 'PrivateContractor' : 'EmploymentOfficer';
}

export const isStaffRole = (role: string) => (STAFF_ROLES as readonly string[]).includes(role);
export const isPresenterRole = (role: string) => (PRESENTER_ROLES as readonly string[]).includes(role);
export const isAdminGrantable = (role: string) => (ADMIN_GRANTABLE_ROLES as readonly string[]).includes(role);

export interface DraftParticipant {
  role: string | null | undefined;
  displayName: string | null | undefined;
  pin: string | null | undefined;
  afId: string | null | undefined;
  /** Already saved (has an id) or carried over by copy: the stored personnummer stands in for a typed one. */
  hasStoredPin: boolean;
  currentUser: boolean;
  editMode: boolean;
}

export interface MeetingDraft {
  title: string | null | undefined;
  /** yyyy-MM-dd and HH:mm in Europe/Stockholm, as the form holds them. */
  date: string | null | undefined;
  startTime: string | null | undefined;
  endTime: string | null | undefined;
  participants: DraftParticipant[];
}

export interface DraftContext {
  now: Date;
  /** Editing a meeting whose start has passed: its date and times are not checked against now. */
  started: boolean;
}

const blank = (s: string | null | undefined) => !s || !s.trim();

/** Card-level rules (spec §5 participant card). */
export function validateParticipant(p: DraftParticipant, i: number, now: Date): ErrorItem[] {
  const errors: ErrorItem[] = [];
  if (blank(p.role) || p.role === 'None') errors.push({ fields: [FIELD.role(i)], message: MEETING_MESSAGES.roleRequired });
  if (p.currentUser) return errors;
  if (!blank(p.role) && isStaffRole(p.role!)) {
    if (blank(p.afId) || p.afId!.trim().length < 3) errors.push({ fields: [FIELD.afId(i)], message: MEETING_MESSAGES.fieldInvalid });
    return errors;
  }
  if (blank(p.displayName)) errors.push({ fields: [FIELD.displayName(i)], message: MEETING_MESSAGES.fieldInvalid });
  if (blank(p.pin)) {
    // Missing and wrong are told apart: the error list says 'personnummer' for one, 'Felaktigt personnummer' for the other.
    if (!p.hasStoredPin) errors.push({ fields: [FIELD.pin(i)], message: MEETING_MESSAGES.pinRequired });
  } else {
    const check = checkPersonnummer(p.pin!, now);
    if (!check.ok) errors.push({ fields: [FIELD.pin(i)], message: pinErrorMessage(check) });
  }
  return errors;
}

/**
 * The whole form (spec §5): every required-field message, every card error, then the first failing of the
 * ordered checks (participants saved, start not before now, start not after end).
 */
export function validateMeetingDraft(d: MeetingDraft, ctx: DraftContext): ErrorItem[] {
  const errors: ErrorItem[] = [];
  if (blank(d.title)) errors.push({ fields: [FIELD.title], message: MEETING_MESSAGES.titleRequired });
  if (blank(d.date)) errors.push({ fields: [FIELD.date], message: MEETING_MESSAGES.dateRequired });
  if (blank(d.startTime)) errors.push({ fields: [FIELD.startTime], message: MEETING_MESSAGES.startRequired });
  if (blank(d.endTime)) errors.push({ fields: [FIELD.endTime], message: MEETING_MESSAGES.endRequired });
  d.participants.forEach((p, i) => {
    if (!p.editMode) errors.push(...validateParticipant(p, i, ctx.now));
  });

  if (!d.participants.length || d.participants.some((p) => p.editMode)) {
    errors.push({ fields: [FIELD.participants], message: MEETING_MESSAGES.participantsUnsaved });
    return errors;
  }
  if (blank(d.date) || blank(d.startTime) || blank(d.endTime)) return errors;
  const start = fromLocal(d.date!, d.startTime!);
  const end = fromLocal(d.date!, d.endTime!);
  if (!start) errors.push({ fields: [FIELD.startTime], message: MEETING_MESSAGES.fieldInvalid });
  if (!end) errors.push({ fields: [FIELD.endTime], message: MEETING_MESSAGES.fieldInvalid });
  if (!start || !end) return errors;
  if (!ctx.started && start.getTime() < ctx.now.getTime()) {
    errors.push({ fields: [FIELD.startTime, FIELD.date], message: MEETING_MESSAGES.startInPast });
  } else if (start.getTime() >= end.getTime()) {
    errors.push({ fields: [FIELD.startTime, FIELD.endTime], message: MEETING_MESSAGES.startAfterEnd });
  }
  return errors;
}

/**
 * Limits of spec §9: at most 10 participants in a meeting, at most 8 presenters in a webcast; and in either type at
 * most MAX_TEXT_INTERPRETERS text interpreters.
 */
export function limitError(type: 0 | 1, roles: string[]): ErrorItem | null {
  if (type === 0 && roles.length > MEETING_MAX_PARTICIPANTS) return { fields: [FIELD.participants], message: MEETING_MESSAGES.tooManyParticipants };
  if (type === 1 && roles.filter(isPresenterRole).length > WEBCAST_MAX_PRESENTERS) {
    return { fields: [FIELD.participants], message: MEETING_MESSAGES.tooManyPresenters };
  }
  if (roles.filter(isTextInterpreterRole).length > MAX_TEXT_INTERPRETERS) return { fields: [FIELD.participants], message: MEETING_MESSAGES.tooManyTextInterpreters };
  return null;
}

export const isTextInterpreterRole = (role: string | null | undefined) => role === CAPTIONER_ROLE;

/** Whose camera stays on stage for everyone (sign-language and text interpreters), whatever the grid holds. */
export const isKeptOnStage = (role: string | null | undefined) => (STAGE_KEPT_ROLES as readonly (string | null | undefined)[]).includes(role);

// ---- Time in Europe/Stockholm, without a date library: the EU's summer-time rule, and Intl outside its years. ----

// Made on first use only: a page's first Intl.DateTimeFormat is a long task (stockholm-offset.ts).
let partsFormat: Intl.DateTimeFormat | null = null;
const partsFormatOptions: Intl.DateTimeFormatOptions = {
  timeZone: MEETING_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  weekday: 'short',
};

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 1 Monday … 7 Sunday. */
  isoWeekday: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

function intlParts(date: Date): LocalParts {
  const get: Record<string, string> = {};
  for (const p of (partsFormat ??= new Intl.DateTimeFormat('en-GB', partsFormatOptions)).formatToParts(date)) get[p.type] = p.value;
  return {
    year: Number(get.year),
    month: Number(get.month),
    day: Number(get.day),
    hour: Number(get.hour),
    minute: Number(get.minute),
    second: Number(get.second),
    isoWeekday: WEEKDAYS[get.weekday!] ?? 1,
  };
}

const HOUR_MS = 3_600_000;
/**
 * Stockholm's offset from UTC for each UTC hour seen. The zone changes offset only on the hour, so one lookup per
 * hour replaces one per date: lists format thousands of dates, and outside the rule's years Intl's formatToParts is
 * slow.
 */
const offsetByUtcHour = new Map<number, number>();

function offsetOfUtcHour(hour: number): number {
  let offset = offsetByUtcHour.get(hour);
  if (offset === undefined) {
    offset = offsetByRule(hour * HOUR_MS) ?? intlOffset(hour * HOUR_MS);
    if (offsetByUtcHour.size >= 100_000) offsetByUtcHour.clear();
    offsetByUtcHour.set(hour, offset);
  }
  return offset;
}

function intlOffset(t: number): number {
  const p = intlParts(new Date(t));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - t;
}

/** The Stockholm wall-clock parts of an instant. */
export function localParts(date: Date): LocalParts {
  const t = date.getTime();
  if (!Number.isFinite(t)) return intlParts(date); // throws RangeError, as Intl does for an invalid date
  const wall = new Date(t + offsetOfUtcHour(Math.floor(t / HOUR_MS)));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    isoWeekday: ((wall.getUTCDay() + 6) % 7) + 1,
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** yyyy-MM-dd in Stockholm. */
export const localDate = (d: Date) => {
  const p = localParts(d);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
};
/** HH:mm in Stockholm. */
export const localTime = (d: Date) => {
  const p = localParts(d);
  return `${pad(p.hour)}:${pad(p.minute)}`;
};

/** The instant of a Stockholm wall-clock date and time; null when either is malformed or impossible. */
export function fromLocal(date: string, time: string = '00:00'): Date | null {
  const dm = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  const tm = /^(\d{2}):(\d{2})$/.exec(time.trim());
  if (!dm || !tm) return null;
  const [y, mo, d, h, mi] = [Number(dm[1]), Number(dm[2]), Number(dm[3]), Number(tm[1]), Number(tm[2])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(wall);
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return null;
  // The zone's offset at the guess, then again at the result (they differ only around a DST change).
  let t = wall - offsetAt(new Date(wall));
  t = wall - offsetAt(new Date(t));
  return new Date(t);
}

/** Stockholm's offset from UTC at an instant, in ms. */
export function offsetAt(d: Date): number {
  const p = localParts(d);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(d.getTime() / 1000) * 1000;
}

/** Start of the Stockholm day containing `d`, plus `days`. */
export function startOfLocalDay(d: Date, days = 0): Date {
  const p = localParts(d);
  const shifted = new Date(Date.UTC(p.year, p.month - 1, p.day + days));
  return fromLocal(`${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`)!;
}

/** ISO week (weeks start Monday; week 1 holds the year's first Thursday) of a Stockholm date. */
export function isoWeekOf(d: Date): { week: number; year: number } {
  const p = localParts(d);
  const day = new Date(Date.UTC(p.year, p.month - 1, p.day));
  day.setUTCDate(day.getUTCDate() + 4 - p.isoWeekday); // the Thursday of this week decides the year
  const year = day.getUTCFullYear();
  const week = Math.ceil(((day.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return { week, year };
}

/** [Monday 00:00, next Monday 00:00) in Stockholm for an ISO week. */
export function isoWeekRange(year: number, week: number): { from: Date; to: Date } {
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const jan4Weekday = jan4.getUTCDay() || 7;
  const monday = new Date(jan4.getTime() + ((week - 1) * 7 - (jan4Weekday - 1)) * 86_400_000);
  const ymd = (x: Date) => `${x.getUTCFullYear()}-${pad(x.getUTCMonth() + 1)}-${pad(x.getUTCDate())}`;
  const nextMonday = new Date(monday.getTime() + 7 * 86_400_000);
  return { from: fromLocal(ymd(monday))!, to: fromLocal(ymd(nextMonday))! };
}
