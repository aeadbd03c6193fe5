import type { ErrorItem } from '@videomote/contract/errors';
import type { Employee, Meeting, MeetingRequest, MeetingWeek, Participant } from '@videomote/contract/meetings';
import { PIN_MASK_PATTERN } from '@videomote/contract/meetings';
import { FIELD, MEETING_MESSAGES, isStaffRole, isoWeekOf, limitError, startOfLocalDay } from '@videomote/contract/meeting-rules';
import { checkPersonnummer } from '@videomote/contract/personnummer';
import type { Db } from '../../platform/db.ts';
import { randomBytesPooled, type PinCrypto } from '../../platform/crypto.ts';
import type { SessionUser } from '../../platform/session.ts';
import type { MeetingEvents } from '../../platform/meeting-events.ts';
import { AppError, conflict, forbidden, notFound, validationError } from '../../platform/errors.ts';
import type { EmployeeDirectory } from '../directory/employee-directory.ts';
import { DIRECTORY_UNAVAILABLE, isDirectoryUnavailable } from '../directory/directory-errors.ts';
import { UUID_PATTERN } from './meeting-membership.ts';
import { newSignupCode, storedSignupCode } from './signup-code.ts';
import { SIGNUP_SETTING_MESSAGES, dedupe, draftErrors, duplicateErrors, isUserParticipant, meetingTimes, parseInstant, roleFor, wantsAdmin, withBookerCard } from './meeting-plan.ts';
import {
  deleteMeetingRow,
  findMeetingWithParticipants,
  insertMeetingWithParticipants,
  meetingListJson,
  replaceParticipants,
  setCountInfoParticipants,
  setSignupCode,
  updateMeetingIfVersion,
  upcomingStartsOfUser,
  type MeetingRow,
  type ParticipantRow,
  type ParticipantWrite,
} from './meetings.repository.ts';

export interface MeetingsDeps {
  db: Db;
  pins: PinCrypto;
  directory: EmployeeDirectory;
  now: () => Date;
  /** Told after an update or delete has committed, so chat and media close the sockets of people no longer in it. */
  events?: MeetingEvents;
}

/** 144 random bits, URL-safe: the room link of a webcast must not be guessable (and fits findMeetingByRoomId). */
export const newRoomId = () => randomBytesPooled(18).toString('base64url');

const MAX_RANGE_MS = 62 * 86_400_000;


const fullName = (user: SessionUser) => `${user.firstName} ${user.lastName}`.trim();


export class MeetingsService {
  constructor(private readonly deps: MeetingsDeps) {}

  // ---------- reading ----------

  /** A meeting the user takes part in; 404 for everybody else, so that existence does not leak. */
  async get(user: SessionUser, id: string): Promise<Meeting> {
    const { meeting, participants, me } = await this.loadForMember(user, id);
    return this.toDto(meeting, participants, user, me?.is_admin ?? false);
  }

  /**
   * The user's meetings starting in [from, to), each with its participants, as the JSON text of a `Meeting[]`
   * (see meetingListJson for why it is text).
   */
  async listRange(user: SessionUser, fromRaw: string | undefined, toRaw: string | undefined, fallback: 'day' | 'week'): Promise<string> {
    const now = this.deps.now();
    const from = fromRaw ? parseInstant(fromRaw) : startOfLocalDay(now, fallback === 'day' ? 0 : 1);
    const to = toRaw ? parseInstant(toRaw) : startOfLocalDay(now, fallback === 'day' ? 1 : 8);
    const errors: ErrorItem[] = [];
    if (!from) errors.push({ fields: ['from'], message: MEETING_MESSAGES.fieldInvalid });
    if (!to) errors.push({ fields: ['to'], message: MEETING_MESSAGES.fieldInvalid });
    if (from && to && (to.getTime() <= from.getTime() || to.getTime() - from.getTime() > MAX_RANGE_MS)) {
      errors.push({ fields: ['to'], message: MEETING_MESSAGES.fieldInvalid });
    }
    if (errors.length) throw validationError(errors);
    return meetingListJson(this.deps.db, user, from!, to!);
  }

  /**
   * The weeks the upcoming list can show (spec §2 week picker): the week of tomorrow, then every later ISO week
   * in which the user has a meeting.
   */
  async weeks(user: SessionUser): Promise<MeetingWeek[]> {
    const tomorrow = startOfLocalDay(this.deps.now(), 1);
    const seen = new Map<string, MeetingWeek>();
    const add = (d: Date) => {
      const w = isoWeekOf(d);
      seen.set(`${w.year}-${String(w.week).padStart(2, '0')}`, w);
    };
    add(tomorrow);
    for (const start of await upcomingStartsOfUser(this.deps.db, user, tomorrow)) add(start);
    return [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, w]) => w);
  }

  /** A create-form template from an existing meeting (admins only). Personnummer stay on the server. */
  async copyTemplate(user: SessionUser, id: string): Promise<Meeting> {
    const { meeting, participants, me } = await this.loadForMember(user, id);
    if (!me?.is_admin) throw forbidden();
    const dto = this.toDto(meeting, participants.filter((p) => !p.self_registered), user, true);
    return {
      ...dto,
      id: null,
      roomId: null,
      created: null,
      version: 0,
      selfRegistrations: 0,
      countInfoParticipants: 0,
      copiedFromMeetingId: meeting.id,
      participants: dto.participants.map((p) => ({ ...p, id: null, meetingId: null, copiedFromParticipantId: p.id })),
    };
  }

  // ---------- writing ----------

  async create(user: SessionUser, req: MeetingRequest): Promise<Meeting> {
    if (!user.features.includes('EditMeeting')) throw forbidden();
    let copySource: ParticipantRow[] = [];
    if (req.copiedFromMeetingId) {
      const source = await this.loadForMember(user, req.copiedFromMeetingId);
      if (!source.me?.is_admin) throw forbidden();
      copySource = source.participants;
    }
    const plan = await this.plan(user, req, null, [], copySource);
    const signupCode = req.signupEnabled === true ? storedSignupCode(newSignupCode(), this.deps.pins) : null;
    const { row, participants } = await insertMeetingWithParticipants(
      this.deps.db,
      { ...plan.meeting, createdBy: createdByOf(user), roomId: newRoomId(), created: this.deps.now(), signupCode },
      plan.participants,
    );
    // Everything was just written: answer from it instead of reading it back.
    return this.toDto(row, participants, user, true, plan.typedPins);
  }

  async update(user: SessionUser, req: MeetingRequest): Promise<Meeting> {
    if (!user.features.includes('EditMeeting')) throw forbidden();
    const id = req.id ?? '';
    const { meeting, participants, me } = await this.loadForMember(user, id);
    if (!me?.is_admin) throw forbidden();
    if (typeof req.version !== 'number') throw validationError([{ fields: ['version'], message: MEETING_MESSAGES.fieldInvalid }]);
    if (req.version !== meeting.version) throw conflict(MEETING_MESSAGES.conflict);
    const plan = await this.plan(user, req, meeting, participants, []);
    await this.deps.db.transaction(async (tx) => {
      // The version check and the write are one statement: of two concurrent updates exactly one gets the row.
      const updated = await updateMeetingIfVersion(tx, meeting.id, req.version!, plan.meeting);
      if (!updated) throw conflict(MEETING_MESSAGES.conflict);
      await replaceParticipants(tx, meeting.id, plan.participants);
      // Turned on: a new code (an earlier one, from before it was turned off, stays dead). Left out: as it was.
      const signupOn = !!meeting.signup_code_hash;
      if (req.signupEnabled === true && !signupOn) await setSignupCode(tx, meeting.id, storedSignupCode(newSignupCode(), this.deps.pins));
      if (req.signupEnabled === false && signupOn) await setSignupCode(tx, meeting.id, null);
    });
    await this.deps.events?.emit({ type: 'membershipChanged', meetingId: meeting.id });
    return this.get(user, meeting.id);
  }

  async remove(user: SessionUser, id: string): Promise<void> {
    const { me } = await this.loadForMember(user, id);
    if (!me?.is_admin) throw forbidden();
    await deleteMeetingRow(this.deps.db, id);
    await this.deps.events?.emit({ type: 'meetingDeleted', meetingId: id });
  }

  /** The meeting and, for its admins only, its current sign-up code (null when sign-up is off): the links page. */
  async withSignupCode(user: SessionUser, id: string): Promise<{ meeting: Meeting; signupCode: string | null }> {
    const { meeting, participants, me } = await this.loadForMember(user, id);
    const admin = me?.is_admin ?? false;
    return { meeting: this.toDto(meeting, participants, user, admin), signupCode: admin ? this.signupCodeOf(meeting) : null };
  }

  /** A new sign-up code for the meeting (its admins only); links with the old one stop working at once. */
  async renewSignupCode(user: SessionUser, id: string): Promise<{ meeting: Meeting; signupCode: string }> {
    const { meeting, participants, me } = await this.loadForMember(user, id);
    if (!me?.is_admin) throw forbidden();
    if (!meeting.signup_code_hash) {
      throw new AppError('Conflict', SIGNUP_SETTING_MESSAGES.signupOff, [{ fields: ['signupEnabled'], message: SIGNUP_SETTING_MESSAGES.signupOff }]);
    }
    const code = newSignupCode();
    const stored = storedSignupCode(code, this.deps.pins);
    await setSignupCode(this.deps.db, meeting.id, stored);
    return { meeting: this.toDto({ ...meeting, signup_code_hash: stored.hash, signup_code_encrypted: stored.encrypted }, participants, user, true), signupCode: code };
  }

  async setCountInfoParticipants(user: SessionUser, id: string, count: number): Promise<{ id: string; countInfoParticipants: number }> {
    const { me } = await this.loadForMember(user, id);
    if (!me?.is_admin) throw forbidden();
    await setCountInfoParticipants(this.deps.db, id, count);
    return { id, countInfoParticipants: count };
  }

  // ---------- rules ----------

  /**
   * Applies every rule of spec §5 and §6 to a create or update request and returns what to store, or throws the
   * Swedish errors in the spec's shape (400) or a 403 for what the user may not do at all.
   */
  private async plan(
    user: SessionUser,
    req: MeetingRequest,
    existing: MeetingRow | null,
    existingParticipants: ParticipantRow[],
    copySource: ParticipantRow[],
  ): Promise<{
    meeting: { title: string; type: 0 | 1; start: Date; end: Date };
    participants: ParticipantWrite[];
    /** The personnummer this request encrypted, by ciphertext: the answer masks them without decrypting again. */
    typedPins: Map<string, string>;
  }> {
    const now = this.deps.now();
    const { type, start, end } = meetingTimes(user, req, existing);
    const existingById = new Map(existingParticipants.map((p) => [p.id, p]));
    const copyById = new Map(copySource.map((p) => [p.id, p]));
    const { list, meIndex } = withBookerCard(req.participants ?? [], user, type, existingById);
    const errors = draftErrors({ req, list, meIndex, start, end, existing, existingById, copyById, now });

    const writes: { index: number; write: ParticipantWrite }[] = [];
    const typedPins = new Map<string, string>();
    for (const [i, p] of list.entries()) {
      const stored = p.id ? existingById.get(p.id) : undefined;
      if (p.id && !stored) {
        // An id that is not one of this meeting's participants: refuse rather than silently adding someone.
        errors.push({ fields: [FIELD.displayName(i)], message: MEETING_MESSAGES.fieldInvalid });
        continue;
      }
      const copied = p.copiedFromParticipantId ? copyById.get(p.copiedFromParticipantId) : undefined;
      const isMe = i === meIndex;
      const decided = roleFor(p, i, { user, type, isMe, stored });
      if (!decided) continue;
      if ('error' in decided) {
        errors.push(decided.error);
        continue;
      }
      const { role, keptRole } = decided;
      const admin = wantsAdmin(p, i, { role, keptRole, isMe, stored });

      let afId: string | null = null;
      let email: string | null = null;
      let displayName = (p.displayName ?? '').trim();
      let pinHash: string | null = null;
      let pinEncrypted: string | null = null;
      if (isMe) {
        afId = user.afId;
        pinHash = user.pinHash;
        pinEncrypted = user.pinEncrypted;
        displayName = fullName(user) || displayName;
        if (user.afId) {
          // Booking never waits on the directory for the booker: without it, the name comes from the login and the
          // e-mail address is filled in by the next save that reaches the directory.
          const employee = await this.findEmployee(user.afId);
          if (employee !== 'unavailable') {
            email = employee?.elektroniskAdress ?? null;
            displayName = employee?.namn ?? displayName;
          }
        }
      } else if (isStaffRole(role) && stored?.af_id && stored.af_id === p.afId) {
        // A colleague already in the meeting stays as booked, even if the directory no longer lists them.
        afId = stored.af_id;
        email = stored.email;
        displayName = stored.display_name;
      } else if (isStaffRole(role)) {
        const employee = p.afId && p.afId.trim().length >= 3 ? await this.findEmployee(p.afId) : null;
        if (employee === 'unavailable') {
          // A new colleague cannot be checked now: the form shows why at their field, the rest of the meeting stays.
          errors.push({ fields: [FIELD.afId(i)], message: DIRECTORY_UNAVAILABLE });
          continue;
        }
        if (!employee) {
          if (p.afId && p.afId.trim().length >= 3) errors.push({ fields: [FIELD.afId(i)], message: MEETING_MESSAGES.fieldInvalid });
          continue;
        }
        afId = employee.signatur;
        email = employee.elektroniskAdress;
        displayName = employee.namn;
      } else {
        const typed = p.pin && !PIN_MASK_PATTERN.test(p.pin) ? checkPersonnummer(p.pin, now) : null;
        if (typed?.ok) {
          pinHash = this.deps.pins.hash(typed.pin);
          pinEncrypted = this.deps.pins.encrypt(typed.pin);
          typedPins.set(pinEncrypted, typed.pin);
        } else if (!typed && (stored?.pin_encrypted || copied?.pin_encrypted)) {
          const source = stored?.pin_encrypted ? stored : copied!;
          pinHash = source.pin_hash;
          pinEncrypted = source.pin_encrypted;
        }
        email = p.email?.trim() || null;
      }
      writes.push({ index: i, write: {
        id: stored?.id ?? null,
        role,
        displayName: displayName.slice(0, 200),
        afId,
        pinHash,
        pinEncrypted,
        email,
        isParticipant: p.isParticipant !== false,
        isAdmin: admin,
        selfRegistered: stored?.self_registered ?? false,
      } });
    }
    errors.push(...duplicateErrors(writes));
    const limit = limitError(type, writes.map((w) => w.write.role));
    if (limit) errors.push(limit);
    if (errors.length || !start || !end) throw validationError(dedupe(errors));
    return { meeting: { title: req.title!.trim(), type, start, end }, participants: writes.map((w) => w.write), typedPins };
  }

  // ---------- helpers ----------

  /** The directory's answer, or 'unavailable' when it cannot be reached (the caller decides what booking does then). */
  private async findEmployee(afId: string): Promise<Employee | null | 'unavailable'> {
    try {
      return await this.deps.directory.find(afId);
    } catch (err) {
      if (isDirectoryUnavailable(err)) return 'unavailable';
      throw err;
    }
  }

  private async loadForMember(user: SessionUser, id: string) {
    if (!UUID_PATTERN.test(id)) throw notFound('Mötet hittades inte');
    const found = await findMeetingWithParticipants(this.deps.db, id);
    if (!found) throw notFound('Mötet hittades inte');
    const { participants, ...meeting } = found;
    const me = participants.find((p) => isUserParticipant(p, user));
    if (!me) throw notFound('Mötet hittades inte');
    return { meeting, participants, me };
  }

  /** Keep in step with meetingListJson, which builds the same shape for lists (a test compares the two). */
  private toDto(m: MeetingRow, participants: ParticipantRow[], user: SessionUser, adminView: boolean, typedPins?: Map<string, string>): Meeting {
    return {
      id: m.id,
      title: m.title,
      type: m.type === 1 ? 1 : 0,
      startTime: new Date(m.start_time).toISOString(),
      endTime: new Date(m.end_time).toISOString(),
      created: new Date(m.created).toISOString(),
      roomId: m.room_id,
      version: m.version,
      selfRegistrations: m.self_registrations,
      countInfoParticipants: m.count_info_participants,
      createdBy: m.created_by,
      currentUserIsAdmin: adminView,
      signupEnabled: !!m.signup_code_hash,
      participants: participants.map((p) => this.participantDto(p, user, adminView, typedPins)),
    };
  }

  private signupCodeOf(m: MeetingRow): string | null {
    if (!m.signup_code_encrypted) return null;
    try {
      return this.deps.pins.decrypt(m.signup_code_encrypted);
    } catch {
      return null; // a key change leaves the copy unreadable: the admin renews the code to get a link again
    }
  }

  private participantDto(p: ParticipantRow, user: SessionUser, adminView: boolean, typedPins?: Map<string, string>): Participant {
    let pin: string | null = null;
    if (adminView && p.pin_encrypted) {
      try {
        pin = maskPin(typedPins?.get(p.pin_encrypted) ?? this.deps.pins.decrypt(p.pin_encrypted));
      } catch {
        pin = null; // a key change leaves old ciphertext unreadable; the number is simply not shown
      }
    }
    return {
      id: p.id,
      role: p.role,
      displayName: p.display_name,
      pin,
      afId: p.af_id,
      email: adminView ? p.email : null,
      currentUser: isUserParticipant(p, user),
      isParticipant: p.is_participant,
      isAdmin: p.is_admin,
      meetingId: p.meeting_id,
      selfRegistered: p.self_registered,
    };
  }
}

/** The admin sees which person a card holds (birth date) but never the whole number. */
export const maskPin = (pin: string) => `${pin.slice(0, 8)}-****`;

const createdByOf = (user: SessionUser) => user.roles.join(',') || user.kind;
