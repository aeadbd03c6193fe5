import { describe, expect, it } from 'vitest';
import { allTiles, CallModel, OWN_SCREEN_ID, screenStreamId, type AnnouncedConnection } from './call-model.ts';
import { isShareDenied, shareAfterFreshStart, sharerText, shareAction } from './screen-share.ts';

const caps = { publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false, screenShare: true };
const conn = (id: string, extra: Partial<AnnouncedConnection> = {}): AnnouncedConnection => ({
  connectionId: id, participantId: null, displayName: `Person ${id}`, feedId: 1, screenFeedId: null, hasAudio: true, hasVideo: true, moderator: false, endToEnd: true, ...extra,
});
const fakeStream = {} as MediaStream;

function model() {
  const m = new CallModel();
  m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('b')] });
  return m;
}

describe('screen sharing', () => {
  it('starts at once when nobody shares, asks with the name when someone does, stops when sharing', () => {
    const m = model();
    expect(shareAction(m.getState())).toEqual({ kind: 'start' });
    expect(sharerText(m.getState())).toBeNull();
    m.connectionUpdated(conn('b', { screenFeedId: 7, displayName: 'Bo Ek' }));
    expect(shareAction(m.getState())).toEqual({ kind: 'ask', connectionId: 'b', displayName: 'Bo Ek' });
    expect(sharerText(m.getState())).toBe('Bo Ek delar skärm');
    m.connectionUpdated(conn('b', { screenFeedId: null }));
    m.screenShareStarted(fakeStream);
    expect(shareAction(m.getState())).toEqual({ kind: 'stop' });
    expect(sharerText(m.getState())).toBe('Du delar skärm');
    expect(allTiles(m.getState()).some((t) => t.streamId === OWN_SCREEN_ID && t.videoType === 'screen')).toBe(true);
    expect(m.getState().showMinis).toBe(true);
    m.screenShareEnded();
    expect(m.getState().isSharingScreen).toBe(false);
    expect(allTiles(m.getState()).some((t) => t.streamId === OWN_SCREEN_ID)).toBe(false);
  });

  it('asks everyone who may share before taking over (spec §6: any participant), never answers "busy"', () => {
    // Whoever has the button may share, and the server gives the takeover with it: the question, not an error.
    const m = new CallModel();
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('b', { screenFeedId: 7, displayName: ' ' })] });
    expect(shareAction(m.getState())).toEqual({ kind: 'ask', connectionId: 'b', displayName: 'Någon annan' });
    m.connectionUpdated(conn('b', { screenFeedId: null }));
    expect(shareAction(m.getState())).toEqual({ kind: 'start' });
  });

  it('names the new sharer while a takeover is under way (the old share still listed)', () => {
    const m = new CallModel();
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { screenFeedId: 5, displayName: 'Al Berg' }), conn('b', { displayName: 'Bo Ek' })] });
    expect(sharerText(m.getState())).toBe('Al Berg delar skärm');
    m.maximise(screenStreamId('a'));
    m.connectionUpdated(conn('b', { screenFeedId: 7, displayName: 'Bo Ek' }));
    expect(sharerText(m.getState())).toBe('Bo Ek delar skärm');
    m.connectionUpdated(conn('a', { screenFeedId: null, displayName: 'Al Berg' }));
    expect(sharerText(m.getState())).toBe('Bo Ek delar skärm');
  });

  it("falls back to 'Någon annan' without a name", () => {
    const m = model();
    m.connectionUpdated(conn('b', { screenFeedId: 7, displayName: ' ' }));
    expect(sharerText(m.getState())).toBe('Någon annan delar skärm');
  });

  it('focuses a new remote share with minis, but no minis on phones', () => {
    const m = model();
    m.connectionUpdated(conn('b', { screenFeedId: 7 }));
    expect(m.getState().streamWithFocus?.streamId).toBe(screenStreamId('b'));
    expect(m.getState().showMinis).toBe(true);
    const p = model();
    p.setDevice('phone');
    p.connectionUpdated(conn('b', { screenFeedId: 7 }));
    expect(p.getState().streamWithFocus?.streamId).toBe(screenStreamId('b'));
    expect(p.getState().showMinis).toBe(false);
  });

  it('after a fresh start publishes the held share again, unless it ended, may not be, or another has taken over', () => {
    const after = (connections: AnnouncedConnection[], capabilities = caps) => {
      const m = new CallModel();
      m.connected({ connectionId: 'me2', capabilities, connections: [conn('me2'), ...connections] });
      return m.getState();
    };
    // The server may still list the lost connection 'me' with its share: that is no one else's.
    expect(shareAfterFreshStart(after([conn('me', { screenFeedId: 7 }), conn('b')]), { live: true, sharedFrom: 'me' })).toBe('publish');
    expect(shareAfterFreshStart(after([conn('b')]), { live: false, sharedFrom: 'me' })).toBe('end');
    expect(shareAfterFreshStart(after([conn('b')], { ...caps, screenShare: false }), { live: true, sharedFrom: 'me' })).toBe('end');
    expect(shareAfterFreshStart(after([conn('b', { screenFeedId: 9 })]), { live: true, sharedFrom: 'me' })).toBe('end');
  });

  it('treats a denied picker as silent', () => {
    expect(isShareDenied(new DOMException('no', 'NotAllowedError'))).toBe(true);
    expect(isShareDenied(new DOMException('busy', 'NotReadableError'))).toBe(false);
  });
});

describe('forced mute', () => {
  it('switches the own audio flag off and shows the banner until dismissed', () => {
    const m = model();
    m.ownState(true, false);
    m.muteForced();
    expect(m.getState().own.hasAudio).toBe(false);
    expect(m.getState().forcedMute).toBe(true);
    m.dismissForcedMute();
    expect(m.getState().forcedMute).toBe(false);
  });
});
