import { describe, expect, it } from 'vitest';
import type { UserData } from '@videomote/contract/identity';
import type { Meeting } from '@videomote/contract/meetings';
import { currentUserCard, draftParticipant, emptyCard, formFromMeeting, newForm, normaliseTimes, requestOf, startEditing, validateForm } from './meeting-form.ts';

const erik: UserData = {
  ciamGivenName: 'Erik',
  ciamFamilyName: 'Handläggare',
  ciamSub: 's',
  afRole: ['VIDMedarbetare'],
  features: ['EditMeeting'],
  userLevel: 'Intern',
  isAdmin: false,
  identityKind: 'staff',
  afId: 'erihan',
  meetingId: null,
};
const karin: UserData = { ...erik, ciamGivenName: 'Karin', afRole: ['KompletterandeAktör'], userLevel: 'KA', identityKind: 'eid', afId: null };

const meeting: Meeting = {
  id: 'm1',
  title: 'Samtal',
  type: 0,
  startTime: '2026-11-24T09:00:00.000Z',
  endTime: '2026-11-24T10:00:00.000Z',
  created: null,
  roomId: 'r',
  version: 4,
  selfRegistrations: 0,
  countInfoParticipants: 0,
  createdBy: null,
  currentUserIsAdmin: true,
  signupEnabled: false,
  participants: [
    { id: 'p1', role: 'EmploymentOfficer', displayName: 'Erik', pin: null, afId: 'erihan', email: null, currentUser: true, isParticipant: true, isAdmin: true, meetingId: 'm1', selfRegistered: false },
    { id: 'p2', role: 'JobSeeker', displayName: 'Jonna', pin: '19900101-****', afId: null, email: null, currentUser: false, isParticipant: true, isAdmin: false, meetingId: 'm1', selfRegistered: false },
  ],
};

describe('meeting form model', () => {
  it('starts with the user as admin in the default role of the type (spec §4 table)', () => {
    expect(newForm(erik).participants[0]).toMatchObject({ role: 'EmploymentOfficer', isAdmin: true, currentUser: true, displayName: 'Erik Handläggare' });
    expect(currentUserCard(erik, 1).role).toBe('PresenterInternal');
    expect(currentUserCard(karin, 0).role).toBe('PrivateContractor');
    expect(currentUserCard(karin, 1).role).toBe('PresenterExternal');
  });

  it('edits in Stockholm wall-clock time and sends ISO timestamps with the version and the masked number', () => {
    const form = formFromMeeting(meeting, 'edit', new Date('2026-11-20T08:00:00Z'));
    expect(form).toMatchObject({ id: 'm1', date: '2026-11-24', startTime: '10:00', endTime: '11:00', started: false, version: 4 });
    const req = requestOf({ ...form, startTime: '10:30' }, erik);
    expect(req).toMatchObject({ id: 'm1', version: 4, startTime: '2026-11-24T09:30:00.000Z', endTime: '2026-11-24T10:00:00.000Z' });
    expect(req.participants![1]).toMatchObject({ id: 'p2', pin: '19900101-****' });
    expect(formFromMeeting(meeting, 'edit', new Date('2026-11-24T09:05:00Z')).started).toBe(true);
  });

  it('keeps sign-up off for a new meeting, shows the meeting\'s setting when editing, and sends it', () => {
    expect(newForm(erik).signupEnabled).toBe(false);
    expect(requestOf(newForm(erik), erik).signupEnabled).toBe(false);
    const form = formFromMeeting({ ...meeting, signupEnabled: true }, 'edit', new Date('2026-11-20T08:00:00Z'));
    expect(form.signupEnabled).toBe(true);
    expect(requestOf({ ...form, signupEnabled: false }, erik).signupEnabled).toBe(false);
  });

  it('a copy has no id; a saved card keeps its number, a new card needs one', () => {
    const copy = formFromMeeting({ ...meeting, id: null, copiedFromMeetingId: 'm1' }, 'copy', new Date('2026-11-20T08:00:00Z'));
    expect(copy.id).toBeNull();
    expect(copy.copiedFromMeetingId).toBe('m1');
    const saved = formFromMeeting(meeting, 'edit', new Date()).participants[1]!;
    expect(draftParticipant(saved)).toMatchObject({ pin: null, hasStoredPin: true });
    expect(draftParticipant(emptyCard('JobSeeker'))).toMatchObject({ hasStoredPin: false, editMode: true });
  });

  it('keeps the values editing started from, so cancel can restore them', () => {
    const card = formFromMeeting(meeting, 'edit', new Date()).participants[0]!;
    const editing = startEditing(card);
    expect(editing.editMode).toBe(true);
    expect(editing.backup).toMatchObject({ role: 'EmploymentOfficer', editMode: false });
  });

  it('reads typed dates and times into yyyy-MM-dd and HH:mm before they are checked and sent (Stockholm time)', () => {
    const typed = normaliseTimes({ ...formFromMeeting(meeting, 'edit', new Date('2026-11-20T08:00:00Z')), date: '20261124', startTime: '930', endTime: '10.15' });
    expect(typed).toMatchObject({ date: '2026-11-24', startTime: '09:30', endTime: '10:15' });
    expect(validateForm(typed, { now: new Date('2026-11-20T08:00:00Z'), started: false })).toEqual([]);
    expect(requestOf(typed, erik)).toMatchObject({ startTime: '2026-11-24T08:30:00.000Z', endTime: '2026-11-24T09:15:00.000Z' });
    // Summer time: the same wall clock is one hour closer to UTC.
    expect(requestOf(normaliseTimes({ ...typed, date: '2026-07-01' }), erik).startTime).toBe('2026-07-01T07:30:00.000Z');
  });

  it('names an unreadable date or time in Swedish in its place in the list; the required messages of spec §5 stay', () => {
    const ctx = { now: new Date('2026-11-20T08:00:00Z'), started: false };
    const base = formFromMeeting(meeting, 'edit', ctx.now);
    expect(validateForm({ ...base, title: '', date: '2026-13-45', endTime: '25:00' }, ctx)).toEqual([
      { fields: ['title'], message: 'Du behöver ange en rubrik' },
      { fields: ['date'], message: 'Ange datum som åååå-mm-dd' },
      { fields: ['endTime'], message: 'Ange tid som tt:mm' },
    ]);
    expect(validateForm({ ...base, date: '2026-11-24', startTime: '', endTime: 'kl 11' }, ctx)).toEqual([
      { fields: ['startTime'], message: 'Du behöver ange när mötet startar' },
      { fields: ['endTime'], message: 'Ange tid som tt:mm' },
    ]);
    // Readable values go on to the ordered checks of the shared rules.
    expect(validateForm({ ...base, startTime: '11:00', endTime: '10:00' }, ctx)).toEqual([
      { fields: ['startTime', 'endTime'], message: 'Starttiden för ett möte får inte vara en senare tid än sluttiden' },
    ]);
  });
});
