import { describe, expect, it } from 'vitest';
import {
  fromLocal,
  isKeptOnStage,
  isoWeekOf,
  isoWeekRange,
  isTextInterpreterRole,
  limitError,
  localParts,
  localTime,
  MAX_TEXT_INTERPRETERS,
  MEETING_MESSAGES,
  roleOptions,
  validateMeetingDraft,
  validateParticipant,
} from './meeting-rules.ts';
import { ROLE_LABELS } from './participant-roles.ts';

describe('Stockholm time and ISO weeks (shared with the server)', () => {
  it('turns wall-clock time into the right instant on both sides of a DST change', () => {
    expect(fromLocal('2026-07-01', '09:30')!.toISOString()).toBe('2026-07-01T07:30:00.000Z');
    expect(fromLocal('2026-12-01', '09:30')!.toISOString()).toBe('2026-12-01T08:30:00.000Z');
    expect(fromLocal('2026-03-29', '03:30')!.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(localTime(new Date('2026-10-25T02:30:00Z'))).toBe('03:30');
    expect(fromLocal('2026-02-30', '10:00')).toBeNull();
  });
  it('numbers weeks from Monday, week 1 holding the first Thursday', () => {
    expect(isoWeekOf(new Date('2026-11-20T12:00:00Z'))).toEqual({ week: 47, year: 2026 });
    expect(isoWeekOf(new Date('2027-01-01T12:00:00Z'))).toEqual({ week: 53, year: 2026 });
    expect(isoWeekOf(new Date('2026-12-28T12:00:00Z'))).toEqual({ week: 53, year: 2026 });
    const { from, to } = isoWeekRange(2026, 48);
    expect(from.toISOString()).toBe('2026-11-22T23:00:00.000Z'); // Monday 00:00 Stockholm
    expect(to.toISOString()).toBe('2026-11-29T23:00:00.000Z');
  });
  it('validates a draft like the server does', () => {
    const now = new Date('2026-11-20T08:00:00Z');
    const me = { role: 'EmploymentOfficer', displayName: 'Erik', pin: null, afId: 'erihan', hasStoredPin: false, currentUser: true, editMode: false };
    expect(validateMeetingDraft({ title: 'x', date: '2026-11-20', startTime: '14:00', endTime: '15:00', participants: [me] }, { now, started: false })).toEqual([]);
    expect(validateMeetingDraft({ title: 'x', date: '2026-11-20', startTime: '08:00', endTime: '15:00', participants: [me] }, { now, started: true })).toEqual([]);
    expect(validateMeetingDraft({ title: 'x', date: '2026-11-20', startTime: '16:00', endTime: '15:00', participants: [me] }, { now, started: false })[0]!.message).toBe(
      'Starttiden för ett möte får inte vara en senare tid än sluttiden',
    );
  });

  it('refuses a start equal to the end (the spec names only a start later than the end)', () => {
    const now = new Date('2026-11-20T08:00:00Z');
    const me = { role: 'EmploymentOfficer', displayName: 'Erik', pin: null, afId: 'erihan', hasStoredPin: false, currentUser: true, editMode: false };
    const errors = validateMeetingDraft({ title: 'x', date: '2026-11-20', startTime: '15:00', endTime: '15:00', participants: [me] }, { now, started: false });
    expect(errors.map((e) => e.message)).toEqual(['Starttiden för ett möte får inte vara en senare tid än sluttiden']);
  });
});

describe('localParts', () => {
  const intl = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Stockholm', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  const expected = (d: Date) => {
    const g = Object.fromEntries(intl.formatToParts(d).map((p) => [p.type, Number(p.value)]));
    return [g.year, g.month, g.day, g.hour, g.minute, g.second];
  };
  const actual = (d: Date) => {
    const p = localParts(d);
    return [p.year, p.month, p.day, p.hour, p.minute, p.second];
  };

  it('agrees with Intl minute by minute around both DST changes of 2026', () => {
    for (const change of ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z']) {
      const t0 = Date.parse(change);
      for (let m = -90; m <= 90; m++) {
        const d = new Date(t0 + m * 60_000 + 17_000);
        expect(actual(d), d.toISOString()).toEqual(expected(d));
      }
    }
  });

  it('agrees with Intl on instants spread over decades, and knows the weekday', () => {
    let t = Date.parse('1975-01-01T00:00:00Z');
    for (let i = 0; i < 2000; i++, t += 7 * 86_400_000 + 3_727_001) {
      expect(actual(new Date(t))).toEqual(expected(new Date(t)));
    }
    expect(localParts(new Date('2026-11-22T23:30:00Z')).isoWeekday).toBe(1); // Monday 00:30 in Stockholm
  });

  it('throws on an invalid date, as Intl does', () => {
    expect(() => localParts(new Date(NaN))).toThrow(RangeError);
  });
});

describe('participant personnummer', () => {
  const now = new Date('2026-11-20T08:00:00Z');
  const jobSeeker = (pin: string | null, hasStoredPin = false) => ({ role: 'JobSeeker', displayName: 'Jonna', pin, afId: null, hasStoredPin, currentUser: false, editMode: false });
  it('says a missing number is missing and a wrong one is wrong', () => {
    expect(validateParticipant(jobSeeker(null), 1, now)).toEqual([{ fields: ['participant-1-pin'], message: MEETING_MESSAGES.pinRequired }]);
    expect(validateParticipant(jobSeeker('  '), 1, now)).toEqual([{ fields: ['participant-1-pin'], message: MEETING_MESSAGES.pinRequired }]);
    expect(validateParticipant(jobSeeker('19900101-2384'), 1, now)).toEqual([{ fields: ['participant-1-pin'], message: MEETING_MESSAGES.fieldInvalid }]);
    expect(validateParticipant(jobSeeker(null, true), 1, now)).toEqual([]);
  });
});

describe('roleOptions and the InternalMeeting feature', () => {
  it('offers colleagues (the staff roles) only to someone who may book internal meetings', () => {
    expect(roleOptions(0, 'Intern', ['EditMeeting', 'InternalMeeting'])).toContain('EmploymentOfficer');
    expect(roleOptions(1, 'Intern', ['EditMeeting', 'InternalMeeting'])).toContain('PresenterInternal');
    expect(roleOptions(0, 'Intern', ['EditMeeting'])).not.toContain('EmploymentOfficer');
    expect(roleOptions(1, 'Intern', ['EditMeeting'])).toEqual(['PresenterExternal', 'TextInterpreter']);
    expect(roleOptions(0, 'Intern', ['EditMeeting'])).toContain('JobSeeker');
    // Without the feature list: every role the level allows (the server's "is this role of this type" check).
    expect(roleOptions(0, 'Intern')).toContain('EmploymentOfficer');
    expect(roleOptions(0, 'KA', ['EditMeeting', 'InternalMeeting'])).not.toContain('EmploymentOfficer');
  });
});

describe('text interpreter (Skrivtolk)', () => {
  it('is offered in both meeting types to every booker, staff or not', () => {
    for (const level of ['Intern', 'KA', 'MSFA'] as const) {
      expect(roleOptions(0, level)).toContain('TextInterpreter');
      expect(roleOptions(1, level)).toContain('TextInterpreter');
      // Not a staff role: without InternalMeeting it stays.
      expect(roleOptions(0, level, [])).toContain('TextInterpreter');
    }
    expect(ROLE_LABELS.TextInterpreter).toBe('Skrivtolk');
  });

  it('is booked by personnummer like other external participants', () => {
    const now = new Date('2026-11-20T08:00:00Z');
    const card = { role: 'TextInterpreter', displayName: 'Sara Skrivtolk', pin: null, afId: null, hasStoredPin: false, currentUser: false, editMode: false };
    expect(validateParticipant(card, 2, now)).toEqual([{ fields: ['participant-2-pin'], message: MEETING_MESSAGES.pinRequired }]);
  });

  it('is limited to two per meeting, who take turns, and does not count as a webcast presenter', () => {
    const two = Array.from({ length: MAX_TEXT_INTERPRETERS }, () => 'TextInterpreter');
    expect(limitError(0, ['EmploymentOfficer', 'JobSeeker', ...two])).toBeNull();
    expect(limitError(0, ['EmploymentOfficer', 'JobSeeker', ...two, 'TextInterpreter'])).toEqual({ fields: ['participants'], message: 'Ett möte kan ha högst 2 skrivtolkar' });
    expect(limitError(1, ['PresenterInternal', ...two, 'TextInterpreter'])!.message).toBe('Ett möte kan ha högst 2 skrivtolkar');
    const eightPresenters = Array.from({ length: 8 }, () => 'PresenterExternal');
    expect(limitError(1, [...eightPresenters, ...two])).toBeNull();
  });

  it('alone sends captions, and stays on stage like the sign-language interpreter', () => {
    expect(['TextInterpreter', 'SignLanguageInterpreter', 'Interpreter', null].map(isTextInterpreterRole)).toEqual([true, false, false, false]);
    expect(['TextInterpreter', 'SignLanguageInterpreter', 'Interpreter', 'JobSeeker', null].map(isKeptOnStage)).toEqual([true, true, false, false, false]);
  });
});
