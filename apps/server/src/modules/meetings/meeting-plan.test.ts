import { describe, expect, it } from 'vitest';
import { FIELD, MEETING_MESSAGES } from '@videomote/contract/meeting-rules';
import type { Feature } from '@videomote/contract/identity';
import type { AppError } from '../../platform/errors.ts';
import type { ParticipantRow } from './meetings.repository.ts';
import { dedupe, draftErrors, duplicateErrors, meetingTimes, roleFor, wantsAdmin, withBookerCard } from './meeting-plan.ts';

const intern = { userLevel: 'Intern' as const, afId: 'erik01', pinHash: null, features: ['EditMeeting', 'InternalMeeting', 'ScreenShare'] as Feature[] };
const row = (over: Partial<ParticipantRow>): ParticipantRow => ({
  id: 'p1', meeting_id: 'm', position: 0, role: 'JobSeeker', display_name: 'Jonna', af_id: null, pin_hash: null, pin_encrypted: null,
  email: null, is_participant: true, is_admin: false, self_registered: false, ...over,
});
const statusOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).statusCode;
  }
  return null;
};

describe('meetingTimes', () => {
  it('parses the instants, names a malformed one (400) and keeps a KA user to conversation meetings (403)', () => {
    const { type, start } = meetingTimes(intern, { type: 1, startTime: '2026-11-20T10:00:00+01:00', endTime: '2026-11-20T11:00:00+01:00' }, null);
    expect(type).toBe(1);
    expect(start?.toISOString()).toBe('2026-11-20T09:00:00.000Z');
    expect(statusOf(() => meetingTimes(intern, { startTime: '20 nov 10:00' }, null))).toBe(400);
    expect(statusOf(() => meetingTimes({ userLevel: 'KA' }, { type: 1 }, null))).toBe(403);
    expect(statusOf(() => meetingTimes({ userLevel: 'KA' }, { type: 1 }, { type: 1 }))).toBeNull();
  });
});

describe('withBookerCard', () => {
  it('finds the booker by the form flag, by a stored identity or by afId, and adds them first when missing', () => {
    expect(withBookerCard([{ role: 'JobSeeker' }, { currentUser: true }], intern, 0, new Map()).meIndex).toBe(1);
    expect(withBookerCard([{ role: 'JobSeeker' }, { afId: 'erik01' }], intern, 0, new Map()).meIndex).toBe(1);
    const stored = new Map([['p9', row({ id: 'p9', af_id: 'erik01' })]]);
    expect(withBookerCard([{ role: 'JobSeeker' }, { id: 'p9' }], intern, 0, stored).meIndex).toBe(1);
    const added = withBookerCard([{ role: 'JobSeeker' }], intern, 0, new Map());
    expect(added.meIndex).toBe(0);
    expect(added.list[0]).toMatchObject({ currentUser: true, isAdmin: true, role: 'EmploymentOfficer' });
    expect(withBookerCard([], intern, 0, new Map())).toEqual({ list: [], meIndex: -1 });
  });
});

describe('draftErrors', () => {
  const base = { existingById: new Map(), copyById: new Map(), existing: null, meIndex: 0 };
  const list = [{ role: 'EmploymentOfficer', displayName: 'Erik', afId: 'erik01', currentUser: true }];
  it('refuses an end on another day, and moving a started meeting', () => {
    const now = new Date('2026-11-20T08:00:00Z');
    const start = new Date('2026-11-20T10:00:00+01:00');
    const nextDay = new Date('2026-11-21T11:00:00+01:00');
    expect(draftErrors({ ...base, req: { title: 'Möte' }, list, start, end: nextDay, now })).toContainEqual({ fields: [FIELD.endTime], message: MEETING_MESSAGES.fieldInvalid });
    const end = new Date('2026-11-20T11:00:00+01:00');
    expect(draftErrors({ ...base, req: { title: 'Möte' }, list, start, end, now })).toEqual([]);
    const existing = { start_time: new Date('2026-11-20T07:00:00Z'), end_time: new Date('2026-11-20T12:00:00Z') } as never;
    expect(draftErrors({ ...base, existing, req: { title: 'Möte' }, list, start, end, now })).toContainEqual({ fields: [FIELD.date], message: MEETING_MESSAGES.startedTimesLocked });
  });
});

describe('roleFor and wantsAdmin', () => {
  it('answers the role, a field error, or a 403 for a role the booker may not give', () => {
    expect(roleFor({ role: 'JobSeeker' }, 1, { user: intern, type: 0, isMe: false, stored: undefined })).toEqual({ role: 'JobSeeker', keptRole: false });
    expect(roleFor({ role: 'PresenterExternal' }, 1, { user: intern, type: 0, isMe: false, stored: undefined })).toEqual({ error: { fields: [FIELD.role(1)], message: MEETING_MESSAGES.roleNotForType } });
    const noInternal = { ...intern, features: ['EditMeeting'] as Feature[] };
    expect(roleFor({ role: 'EmploymentOfficer' }, 2, { user: noInternal, type: 0, isMe: false, stored: undefined })).toEqual({ error: { fields: [FIELD.role(2)], message: MEETING_MESSAGES.internalMeetingNotAllowed } });
    expect(statusOf(() => roleFor({ role: 'EmploymentOfficer' }, 1, { user: { userLevel: 'KA', features: intern.features }, type: 0, isMe: false, stored: undefined }))).toBe(403);
    expect(roleFor({}, 1, { user: intern, type: 0, isMe: false, stored: undefined })).toBeNull();
  });

  it('makes the booker admin, lets only grantable roles be made admin, and never a self-registered person', () => {
    expect(wantsAdmin({}, 0, { role: 'EmploymentOfficer', keptRole: false, isMe: true, stored: undefined })).toBe(true);
    expect(wantsAdmin({ isAdmin: true }, 1, { role: 'PrivateContractor', keptRole: false, isMe: false, stored: undefined })).toBe(true);
    expect(statusOf(() => wantsAdmin({ isAdmin: true }, 1, { role: 'JobSeeker', keptRole: false, isMe: false, stored: undefined }))).toBe(403);
    expect(statusOf(() => wantsAdmin({ isAdmin: true }, 1, { role: 'PrivateContractor', keptRole: true, isMe: false, stored: row({ self_registered: true }) }))).toBe(403);
    expect(wantsAdmin({ isAdmin: false }, 1, { role: 'JobSeeker', keptRole: false, isMe: false, stored: undefined })).toBe(false);
  });
});

describe('duplicateErrors and dedupe', () => {
  it('marks the second card of one employee or one personnummer, and shows one error once', () => {
    const errors = duplicateErrors([
      { index: 0, write: { afId: 'erik01', pinHash: null } },
      { index: 1, write: { afId: null, pinHash: 'h1' } },
      { index: 2, write: { afId: 'erik01', pinHash: null } },
      { index: 3, write: { afId: null, pinHash: 'h1' } },
    ]);
    expect(errors).toEqual([
      { fields: [FIELD.afId(2)], message: MEETING_MESSAGES.fieldInvalid },
      { fields: [FIELD.pin(3)], message: MEETING_MESSAGES.fieldInvalid },
    ]);
    expect(dedupe([...errors, ...errors])).toEqual(errors);
  });
});
