import { describe, expect, it } from 'vitest';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import type { MeetingSummary, MemberRecord, Membership } from '../meetings/meeting-membership.ts';
import { mediaDisplayName, socketTokenRefusal, stillAdmitted, visibleInvitees } from './media-admission.ts';

const meeting = (type: 0 | 1): MeetingSummary => ({
  id: 'm', title: 't', type, startTime: new Date(), endTime: new Date(), roomId: 'r', version: 1, selfRegistrations: 0, countInfoParticipants: 0,
});
const member = (id: string, role: ParticipantRole, extra: Partial<MemberRecord> = {}): MemberRecord => ({
  id, meetingId: 'm', role, displayName: `Namn ${id}`, afId: null, isAdmin: false, isParticipant: true, selfRegistered: false, ...extra,
});
const as = (type: 0 | 1, m: MemberRecord): Membership => ({ kind: 'participant', meeting: meeting(type), participant: m });
const visitor = (type: 0 | 1): Membership => ({ kind: 'visitor', meeting: meeting(type) });

describe('visibleInvitees', () => {
  const members = [member('a', 'EmploymentOfficer', { isAdmin: true }), member('b', 'JobSeeker'), member('c', 'PresenterExternal'), member('d', 'JobSeeker', { isParticipant: false })];

  it('lists every participant to a participant, marking who they are; never a member who is not a participant', () => {
    expect(visibleInvitees(members, as(0, members[1]!))).toEqual([
      { id: 'a', displayName: 'Namn a', role: 'EmploymentOfficer', moderator: true, currentUser: false },
      { id: 'b', displayName: 'Namn b', role: 'JobSeeker', moderator: false, currentUser: true },
      { id: 'c', displayName: 'Namn c', role: 'PresenterExternal', moderator: false, currentUser: false },
    ]);
  });

  it('tells a webcast visitor who presents and who moderates, not who else was invited', () => {
    expect(visibleInvitees(members, visitor(1)).map((p) => p.id)).toEqual(['a', 'c']);
    expect(visibleInvitees(members, visitor(1)).some((p) => p.currentUser)).toBe(false);
  });
});

describe('mediaDisplayName', () => {
  it("takes a participant's name from the booking and a visitor's from their session, whatever the browser asks", () => {
    expect(mediaDisplayName(as(0, member('b', 'JobSeeker')), { firstName: 'Annat', lastName: 'Namn' })).toBe('Namn b');
    expect(mediaDisplayName(visitor(1), { firstName: 'Olle', lastName: '' })).toBe('Olle');
  });
  it('refuses a visitor without a name (400, the spec’s field error)', () => {
    expect(() => mediaDisplayName(visitor(1), { firstName: ' ', lastName: '' })).toThrow(expect.objectContaining({ code: 'ValidationError' }));
  });
});

describe('socketTokenRefusal', () => {
  const claims = { m: 'm', sub: 'u', n: 'X', exp: 0 };
  it('opens the socket with a token of this meeting, this user and this kind only', () => {
    expect(socketTokenRefusal(claims, 'm', 'u', false)).toBeNull();
    expect(socketTokenRefusal({ ...claims, k: 'check' }, 'm', 'u', true)).toBeNull();
    expect(socketTokenRefusal(null, 'm', 'u', false)).toBe('Ogiltig mediabiljett');
    expect(socketTokenRefusal(claims, 'other', 'u', false)).toBe('Ogiltig mediabiljett');
    expect(socketTokenRefusal(claims, 'm', 'someone-else', false)).toBe('Ogiltig mediabiljett');
  });
  it("never lets a connection check's token open the call, nor a call's token a check", () => {
    expect(socketTokenRefusal({ ...claims, k: 'check' }, 'm', 'u', false)).toBe('Ogiltig mediabiljett');
    expect(socketTokenRefusal(claims, 'm', 'u', true)).toBe('Ogiltig mediabiljett');
  });
});

describe('stillAdmitted', () => {
  it('holds while the booking has the same participant, and for a visitor while they are let in as one', () => {
    expect(stillAdmitted(as(0, member('b', 'JobSeeker')), 'b')).toBe(true);
    expect(stillAdmitted(visitor(1), null)).toBe(true);
  });
  it('fails once removed, the meeting gone (no membership), or now someone else in the booking', () => {
    expect(stillAdmitted(null, 'b')).toBe(false);
    expect(stillAdmitted(as(0, member('c', 'JobSeeker')), 'b')).toBe(false);
    expect(stillAdmitted(visitor(1), 'b')).toBe(false);
  });
});
