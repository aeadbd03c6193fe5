import { describe, expect, it } from 'vitest';
import type { InvitedParticipant, MediaConnection } from '@videomote/contract/media';
import { initialCallState, type CallState, type StreamTile } from './call-model.ts';
import { isInterpreterTile, mediaByParticipant, sharedScreenTile, tilePinKey, whoIsWho } from './who-is-who.ts';

const person = (id: string, extra: Partial<InvitedParticipant> = {}): InvitedParticipant => ({ id, displayName: id, role: 'Participant', moderator: false, currentUser: false, ...extra });
const connection = (connectionId: string, participantId: string | null, extra: Partial<MediaConnection> = {}): MediaConnection =>
  ({ connectionId, participantId, displayName: `Namn ${connectionId}`, feedId: 1, screenFeedId: null, hasAudio: true, hasVideo: true, ...extra }) as MediaConnection;
const tile = (connectionId: string, extra: Partial<StreamTile> = {}): StreamTile => ({
  streamId: `camera-${connectionId}`,
  connectionId,
  videoType: 'camera',
  displayName: `Namn ${connectionId}`,
  hasAudio: true,
  hasVideo: true,
  isOwn: false,
  stream: null,
  ...extra,
});
const state = (over: Partial<CallState>): CallState => ({ ...initialCallState(), ...over });

describe('who is who', () => {
  const participants = [person('me', { currentUser: true, moderator: true }), person('tolk', { role: 'SignLanguageInterpreter' }), person('anna')];
  const s = state({ connectionId: 'c0', connections: [connection('c0', 'me'), connection('c1', 'tolk'), connection('c2', 'anna'), connection('c3', null)] });
  const who = whoIsWho(participants, s);

  it('knows the own participant from gettoken and the others from the connection list', () => {
    expect(who.ownId).toBe('me');
    expect(who.isModerator).toBe(true);
    expect(who.participantOf(tile('c0', { isOwn: true, streamId: 'own-camera' }))).toBe('me');
    expect(who.participantOf(tile('c2'))).toBe('anna');
    expect(who.participantOf(tile('c3'))).toBeNull();
    expect(who.participantOf(tile('gone'))).toBeNull();
    expect(who.roleOf(tile('c1'))).toBe('SignLanguageInterpreter');
    expect(who.roleOf(tile('c3'))).toBeUndefined();
  });

  it('is nobody in particular before gettoken answered, or for a webcast visitor', () => {
    const none = whoIsWho([], s);
    expect(none.ownId).toBeNull();
    expect(none.isModerator).toBe(false);
    expect(none.participantOf(tile('c0', { isOwn: true }))).toBeNull();
  });

  it('pins by participant and kind, so a pin survives a reconnect (new connection id); by name for the unbooked', () => {
    const before = tilePinKey(who, tile('c2'));
    const reconnected = whoIsWho(participants, state({ connections: [connection('c9', 'anna')] }));
    expect(tilePinKey(reconnected, tile('c9'))).toBe(before);
    expect(tilePinKey(who, tile('c2', { videoType: 'screen', streamId: 'screen-c2' }))).not.toBe(before);
    expect(tilePinKey(who, tile('c3'))).toBe(tilePinKey(whoIsWho([], state({})), tile('x', { displayName: 'Namn c3' })));
  });

  it("keeps an interpreter's camera only while it shows video, never their screen", () => {
    expect(isInterpreterTile(who, tile('c1'))).toBe(true);
    expect(isInterpreterTile(who, tile('c1', { hasVideo: false }))).toBe(false);
    expect(isInterpreterTile(who, tile('c1', { videoType: 'screen' }))).toBe(false);
    expect(isInterpreterTile(who, tile('c2'))).toBe(false);
    // The text interpreter (Skrivtolk) stays on stage too.
    const withSkrivtolk = whoIsWho([...participants, person('skriv', { role: 'TextInterpreter' })], state({ connections: [connection('c5', 'skriv')] }));
    expect(isInterpreterTile(withSkrivtolk, tile('c5'))).toBe(true);
    expect(isInterpreterTile(withSkrivtolk, tile('c5', { hasVideo: false }))).toBe(false);
  });

  it('gives each participant its media state, the own from the own publisher', () => {
    const media = mediaByParticipant(who, { ...s, connections: [connection('c0', 'me'), connection('c2', 'anna', { hasVideo: false }), connection('c3', null)], own: { stream: null, hasAudio: false, hasVideo: true, alive: true } });
    expect(media).toEqual({ me: { hasAudio: false, hasVideo: true }, anna: { hasAudio: true, hasVideo: false } });
  });

  it('names the shared screen: the own first, else the other sharer', () => {
    expect(sharedScreenTile(state({ isSharingScreen: true }))).toBe('own-screen');
    expect(sharedScreenTile(state({ connectionId: 'c0', connections: [connection('c2', 'anna', { screenFeedId: 7 })] }))).toBe('screen-c2');
    expect(sharedScreenTile(s)).toBeNull();
  });
});
