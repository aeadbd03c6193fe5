import { describe, expect, it } from 'vitest';
import type { Capabilities } from '@videomote/contract/media';
import type { MeetingSummary, Membership } from '../meetings/meeting-membership.ts';
import { mayModerate, membershipVerdict, moderationConflict } from './media-moderation.ts';

const caps = (over: Partial<Capabilities> = {}): Capabilities => ({ publish: true, subscribe: true, forceUnpublish: false, forceDisconnect: false, screenShare: false, ...over });
const meeting: MeetingSummary = { id: 'm', title: 't', type: 0, startTime: new Date(), endTime: new Date(), roomId: 'r', version: 1, selfRegistrations: 0, countInfoParticipants: 0 };
const participant = (id: string): Membership => ({
  kind: 'participant',
  meeting,
  participant: { id, meetingId: 'm', role: 'JobSeeker', displayName: 'X', afId: null, isAdmin: false, isParticipant: true, selfRegistered: false },
});

describe('mayModerate', () => {
  it('lets a share be taken over with forceUnpublish, and mute and removal only with forceDisconnect (meeting admins)', () => {
    expect(mayModerate(caps({ forceUnpublish: true }), 'forceUnpublish')).toBe(true);
    expect(mayModerate(caps({ forceUnpublish: true }), 'forceMute')).toBe(false);
    expect(mayModerate(caps({ forceUnpublish: true }), 'kick')).toBe(false);
    expect(mayModerate(caps({ forceDisconnect: true }), 'forceMute')).toBe(true);
    expect(mayModerate(caps({ forceDisconnect: true }), 'kick')).toBe(true);
    expect(mayModerate(caps({ forceDisconnect: true }), 'forceUnpublish')).toBe(false);
  });
  it('refuses an action it does not know (a request from another node is parsed JSON)', () => {
    expect(mayModerate(caps({ forceUnpublish: true, forceDisconnect: true }), 'explode' as never)).toBe(false);
  });
});

describe('moderationConflict', () => {
  const target = { screenFeedId: 7, feedId: 3, hasAudio: true, audioMids: ['0'] };
  it('stops a screen share only when there is one', () => {
    expect(moderationConflict('forceUnpublish', target)).toBeNull();
    expect(moderationConflict('forceUnpublish', { ...target, screenFeedId: null })).toBe('Ingen skärmdelning att avsluta');
  });
  it('mutes only a published microphone that is on, with audio Janus reported', () => {
    expect(moderationConflict('forceMute', target)).toBeNull();
    expect(moderationConflict('forceMute', { ...target, feedId: null })).toBe('Deltagaren har ingen påslagen mikrofon');
    expect(moderationConflict('forceMute', { ...target, hasAudio: false })).toBe('Deltagaren har ingen påslagen mikrofon');
    expect(moderationConflict('forceMute', { ...target, audioMids: [] })).toBe('Deltagaren har ingen påslagen mikrofon');
  });
  it('removes a connection whatever it publishes', () => {
    expect(moderationConflict('kick', { screenFeedId: null, feedId: null, hasAudio: false, audioMids: [] })).toBeNull();
  });
});

describe('membershipVerdict', () => {
  it('removes whoever the booking no longer holds as this participant, or whose meeting is gone', () => {
    expect(membershipVerdict(null, 'p', null, caps())).toBe('gone');
    expect(membershipVerdict(participant('q'), 'p', caps(), caps())).toBe('gone');
  });
  it('changes the rights of those still booked whose capabilities changed, and leaves the rest', () => {
    expect(membershipVerdict(participant('p'), 'p', caps({ publish: false }), caps())).toBe('rightsChanged');
    expect(membershipVerdict(participant('p'), 'p', caps(), caps())).toBe('same');
  });
});
