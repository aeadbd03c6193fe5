import { describe, expect, it } from 'vitest';
import type { UserData } from '@videomote/contract/identity';
import type { Meeting } from '@videomote/contract/meetings';
import { currentUserCard, draftParticipant, emptyCard, formFromMeeting, newForm, requestOf, startEditing } from './meeting-form.ts';

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
});
