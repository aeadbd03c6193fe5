import { describe, expect, it } from 'vitest';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import type { MeetingSummary, Membership } from '../meetings/meeting-membership.ts';
import { capabilitiesFor, sameCapabilities, seesConnection } from './capabilities.ts';

const meeting = (type: 0 | 1): MeetingSummary => ({
  id: 'm', title: 't', type, startTime: new Date(), endTime: new Date(), roomId: 'r', version: 1, selfRegistrations: 0, countInfoParticipants: 0,
});
const participant = (type: 0 | 1, role: ParticipantRole, isAdmin = false, selfRegistered = false): Membership => ({
  kind: 'participant',
  meeting: meeting(type),
  participant: { id: 'p', meetingId: 'm', role, displayName: 'X', afId: null, isAdmin, isParticipant: true, selfRegistered },
});
const STAFF = ['EditMeeting', 'InternalMeeting', 'ScreenShare'] as const;

describe('capabilitiesFor', () => {
  it('lets everyone in a Meeting publish and subscribe; admins may also disconnect others', () => {
    expect(capabilitiesFor(participant(0, 'JobSeeker'), [])).toEqual({ publish: true, subscribe: true, forceUnpublish: false, forceDisconnect: false, screenShare: false });
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
  it('lets whoever may share take a share over (spec §6), and nobody else: a contractor, an external presenter, a job seeker', () => {
    const sharer = { publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false, screenShare: true };
    expect(capabilitiesFor(participant(0, 'JobSeeker'), ['ScreenShare'])).toEqual(sharer);
    expect(capabilitiesFor(participant(0, 'PrivateContractor'), ['EditMeeting', 'ScreenShare'])).toEqual(sharer);
    expect(capabilitiesFor(participant(1, 'PresenterExternal'), ['ScreenShare'])).toEqual(sharer);
    // Withdrawn from the group in Grupper: neither sharing nor taking over.
    expect(capabilitiesFor(participant(0, 'JobSeeker'), [])).toMatchObject({ publish: true, forceUnpublish: false, screenShare: false });
  });
  it('never lets a self-registered person remove anyone; they publish, share and take a share over in their role', () => {
    const sharer = { publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false, screenShare: true };
    expect(capabilitiesFor(participant(1, 'PresenterExternal', false, true), ['ScreenShare'])).toEqual(sharer);
    expect(capabilitiesFor(participant(0, 'ExternalParticipant', false, true), ['ScreenShare'])).toEqual(sharer);
    // Even a row that claims admin (the database forbids it since migration 014) gets no forceDisconnect.
    expect(capabilitiesFor(participant(0, 'PrivateContractor', true, true), ['EditMeeting', 'ScreenShare'])).toEqual(sharer);
    expect(capabilitiesFor(participant(1, 'JobSeeker', true, true), ['ScreenShare'])).toEqual({ publish: false, subscribe: true, forceUnpublish: false, forceDisconnect: false, screenShare: false });
  });
});

describe('seesConnection', () => {
  const visitor = capabilitiesFor({ kind: 'visitor', meeting: meeting(1) }, []);
  const presenter = capabilitiesFor(participant(1, 'PresenterInternal'), []);
  const admin = capabilitiesFor(participant(1, 'EmploymentOfficer', true), []);
  it('shows a webcast viewer the presenters only, never the other viewers', () => {
    expect(seesConnection(1, visitor, presenter)).toBe(true);
    expect(seesConnection(1, visitor, admin)).toBe(true);
    expect(seesConnection(1, visitor, visitor)).toBe(false);
    expect(seesConnection(1, capabilitiesFor(participant(1, 'JobSeeker'), []), visitor)).toBe(false);
  });
  it('shows presenters and admins everyone, and everyone everyone in a meeting', () => {
    expect(seesConnection(1, presenter, visitor)).toBe(true);
    expect(seesConnection(1, admin, visitor)).toBe(true);
    expect(seesConnection(0, capabilitiesFor(participant(0, 'JobSeeker'), []), capabilitiesFor(participant(0, 'Interpreter'), []))).toBe(true);
  });
  it('tells a change of rights', () => {
    expect(sameCapabilities(presenter, { ...presenter })).toBe(true);
    expect(sameCapabilities(presenter, capabilitiesFor(participant(1, 'JobSeeker'), []))).toBe(false);
  });
});
