import type { Meeting, MeetingRequest, Participant } from '@videomote/contract/meetings';
import type { UserData } from '@videomote/contract/identity';
import type { UserLevel } from '@videomote/contract/identity';
import type { ErrorItem } from '@videomote/contract/errors';
import {
  defaultRoleFor,
  FIELD,
  fromLocal,
  localDate,
  localTime,
  MEETING_MESSAGES,
  validateMeetingDraft,
  type DraftContext,
  type MeetingDraft,
  type DraftParticipant,
} from '@videomote/contract/meeting-rules';
import { dateTimeFormatError, normaliseDateTimeText } from '../../../components/ui/date-time-text.ts';

export type FormMode = 'create' | 'edit' | 'copy';

/** One participant card (spec §3: the card carries interface flags for copy, edit mode and presenter card). */
export interface CardState {
  key: string;
  id: string | null;
  role: string;
  displayName: string;
  /** Typed personnummer, or the server's mask for a saved participant. */
  pin: string;
  afId: string;
  email: string | null;
  currentUser: boolean;
  isAdmin: boolean;
  isParticipant: boolean;
  selfRegistered: boolean;
  copiedFromParticipantId: string | null;
  editMode: boolean;
  /** Added in this form and never saved on its card: cancel removes it. */
  isNew: boolean;
  /** The values before editing started: cancel restores them. */
  backup: Omit<CardState, 'backup'> | null;
}

export interface FormState {
  id: string | null;
  version: number;
  type: 0 | 1;
  title: string;
  date: string;
  startTime: string;
  endTime: string;
  participants: CardState[];
  copiedFromMeetingId: string | null;
  /** The meeting (being edited) has already started: its date and times are locked. */
  started: boolean;
  /** People may add themselves by the sign-up link; off unless the admin turns it on. */
  signupEnabled: boolean;
}

let keys = 0;
export const newKey = () => `card-${++keys}`;

export const userLevelOf = (user: UserData): UserLevel => (user.userLevel as UserLevel) ?? 'None';

export function currentUserCard(user: UserData, type: 0 | 1): CardState {
  return {
    key: newKey(),
    id: null,
    role: defaultRoleFor(type, userLevelOf(user)),
    displayName: `${user.ciamGivenName} ${user.ciamFamilyName}`.trim(),
    pin: '',
    afId: user.afId ?? '',
    email: null,
    currentUser: true,
    isAdmin: true,
    isParticipant: true,
    selfRegistered: false,
    copiedFromParticipantId: null,
    editMode: false,
    isNew: false,
    backup: null,
  };
}

export function emptyCard(role: string): CardState {
  return {
    key: newKey(),
    id: null,
    role,
    displayName: '',
    pin: '',
    afId: '',
    email: null,
    currentUser: false,
    isAdmin: false,
    isParticipant: true,
    selfRegistered: false,
    copiedFromParticipantId: null,
    editMode: true,
    isNew: true,
    backup: null,
  };
}

export function newForm(user: UserData): FormState {
  return { id: null, version: 0, type: 0, title: '', date: '', startTime: '', endTime: '', participants: [currentUserCard(user, 0)], copiedFromMeetingId: null, started: false, signupEnabled: false };
}

const cardFrom = (p: Participant): CardState => ({
  key: newKey(),
  id: p.id,
  role: p.role,
  displayName: p.displayName,
  pin: p.pin ?? '',
  afId: p.afId ?? '',
  email: p.email,
  currentUser: p.currentUser,
  isAdmin: p.isAdmin,
  isParticipant: p.isParticipant,
  selfRegistered: p.selfRegistered,
  copiedFromParticipantId: p.copiedFromParticipantId ?? null,
  editMode: false,
  isNew: false,
  backup: null,
});

export function formFromMeeting(m: Meeting, mode: FormMode, now: Date): FormState {
  const start = new Date(m.startTime);
  const end = new Date(m.endTime);
  return {
    id: mode === 'edit' ? m.id : null,
    version: m.version,
    type: m.type,
    title: m.title,
    date: localDate(start),
    startTime: localTime(start),
    endTime: localTime(end),
    participants: m.participants.map(cardFrom),
    copiedFromMeetingId: mode === 'copy' ? (m.copiedFromMeetingId ?? null) : null,
    started: mode === 'edit' && start.getTime() <= now.getTime(),
    signupEnabled: m.signupEnabled,
  };
}

export const draftParticipant = (c: CardState): DraftParticipant => ({
  role: c.role,
  displayName: c.displayName,
  pin: /^\d{8}-\*{4}$/.test(c.pin) ? null : c.pin,
  afId: c.afId,
  // A saved participant keeps its number; a copied one only if the source still had one (the server sends a mask).
  hasStoredPin: !!c.id || (!!c.copiedFromParticipantId && /^\d{8}-\*{4}$/.test(c.pin)),
  currentUser: c.currentUser,
  editMode: c.editMode,
});

export const draftOf = (f: FormState): MeetingDraft => ({
  title: f.title,
  date: f.date,
  startTime: f.startTime,
  endTime: f.endTime,
  participants: f.participants.map(draftParticipant),
});

/** Date and times as typed, rewritten to yyyy-MM-dd / HH:mm where they can be read (Enter submits without a blur). */
export const normaliseTimes = (f: FormState): FormState => ({
  ...f,
  date: normaliseDateTimeText('date', f.date),
  startTime: normaliseDateTimeText('time', f.startTime),
  endTime: normaliseDateTimeText('time', f.endTime),
});

const HEAD_FIELDS: string[] = [FIELD.title, FIELD.date, FIELD.startTime, FIELD.endTime];

/**
 * The shared rules of spec §5 plus the form's own format check: a date or time that is typed but cannot be read
 * gets 'Ange datum som åååå-mm-dd' / 'Ange tid som tt:mm' in its place in the list, instead of the shared rules'
 * generic 'Fältet är ej korrekt ifyllt' on the start and end times.
 */
export function validateForm(f: FormState, ctx: DraftContext): ErrorItem[] {
  const format: ErrorItem[] = [];
  const dateError = dateTimeFormatError('date', f.date);
  if (dateError) format.push({ fields: [FIELD.date], message: dateError });
  for (const field of [FIELD.startTime, FIELD.endTime] as const) {
    const message = dateTimeFormatError('time', f[field]);
    if (message) format.push({ fields: [field], message });
  }
  const shared = validateMeetingDraft(draftOf(f), ctx);
  if (!format.length) return shared;
  const rest = shared.filter((e) => !(e.message === MEETING_MESSAGES.fieldInvalid && HEAD_FIELDS.includes(e.fields[0] ?? '')));
  const head = [...rest.filter((e) => HEAD_FIELDS.includes(e.fields[0] ?? '')), ...format];
  head.sort((a, b) => HEAD_FIELDS.indexOf(a.fields[0]!) - HEAD_FIELDS.indexOf(b.fields[0]!));
  return [...head, ...rest.filter((e) => !HEAD_FIELDS.includes(e.fields[0] ?? ''))];
}

/** The saved payload (spec §3): start and end as ISO timestamps from the date plus the times; participants as they are. */
export function requestOf(f: FormState, user: UserData): MeetingRequest {
  const start = f.date && f.startTime ? fromLocal(f.date, f.startTime) : null;
  const end = f.date && f.endTime ? fromLocal(f.date, f.endTime) : null;
  return {
    id: f.id,
    title: f.title,
    type: f.type,
    startTime: start?.toISOString() ?? null,
    endTime: end?.toISOString() ?? null,
    version: f.version,
    copiedFromMeetingId: f.copiedFromMeetingId,
    createdBy: userLevelOf(user),
    signupEnabled: f.signupEnabled,
    participants: f.participants.map((c) => ({
      id: c.id,
      role: c.role,
      displayName: c.displayName,
      pin: c.pin || null,
      afId: c.afId || null,
      email: c.email,
      currentUser: c.currentUser,
      isAdmin: c.isAdmin,
      isParticipant: c.isParticipant,
      editMode: c.editMode,
      copiedFromParticipantId: c.copiedFromParticipantId,
    })),
  };
}

/** Edit mode keeps the values it started from, so that cancel can restore them (spec §4). */
export function startEditing(card: CardState): CardState {
  const { backup: _previous, ...values } = card;
  return { ...card, editMode: true, backup: values };
}
