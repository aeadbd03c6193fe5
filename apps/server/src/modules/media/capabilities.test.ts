import { describe, expect, it } from 'vitest';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import type { MeetingSummary, Membership } from '../meetings/meeting-membership.ts';
import { capabilitiesFor } from './capabilities.ts';

const meeting = (type: 0 | 1): MeetingSummary => ({
  id: 'm', title: 't', type, startTime: new Date(), endTime: new Date(), roomId: 'r', version: 1, selfRegistrations: 0, countInfoParticipants: 0,
});
const participant = (type: 0 | 1, role: ParticipantRole, isAdmin = false): Membership => ({
  kind: 'participant',
  meeting: meeting(type),
  participant: { id: 'p', meetingId: 'm', role, displayName: 'X', afId: null, isAdmin, isParticipant: true },
});
const STAFF = ['EditMeeting', 'InternalMeeting', 'ScreenShare'] as const;

describe('capabilitiesFor', () => {
  it('lets everyone in a Meeting publish and subscribe; admins may also disconnect others', () => {
    expect(capabilitiesFor(participant(0, 'JobSeeker'), [])).toEqual({ publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false, screenShare: false });
    expect(capabilitiesFor(participant(0, 'EmploymentOfficer', true), STAFF)).toEqual({ publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: true, screenShare: true });
  });
  it('lets only presenters and admins publish in a Webcast', () => {
    expect(capabilitiesFor(participant(1, 'PresenterExternal'), []).publish).toBe(true);
    expect(capabilitiesFor(participant(1, 'PresenterInternal'), STAFF).publish).toBe(true);
    expect(capabilitiesFor(participant(1, 'EmploymentOfficer', true), STAFF).publish).toBe(true);
    expect(capabilitiesFor(participant(1, 'JobSeeker'), [])).toEqual({ publish: false, subscribe: true, forceUnpublish: false, forceDisconnect: false, screenShare: false });
    expect(capabilitiesFor({ kind: 'visitor', meeting: meeting(1) }, STAFF)).toEqual({ publish: false, subscribe: true, forceUnpublish: false, forceDisconnect: false, screenShare: false });
  });
  it('lets a publisher share a screen only with the ScreenShare feature, and nobody who may not publish', () => {
    expect(capabilitiesFor(participant(0, 'EmploymentOfficer', true), ['EditMeeting', 'InternalMeeting']).screenShare).toBe(false);
    expect(capabilitiesFor(participant(0, 'JobSeeker'), ['ScreenShare']).screenShare).toBe(true);
    expect(capabilitiesFor(participant(1, 'JobSeeker'), ['ScreenShare']).screenShare).toBe(false);
  });
});
