import { describe, expect, it } from 'vitest';
import { allTiles, CallModel, cameraStreamId, OWN_STREAM_ID, screenStreamId, type AnnouncedConnection } from './call-model.ts';
import { deviceFor, initials, layout, matchDevice, raisedCount, statusText } from './layout.ts';
import { callStatus, showsSpinner } from './conference-view.ts';

const caps = { publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false, screenShare: true };
const conn = (id: string, extra: Partial<AnnouncedConnection> = {}): AnnouncedConnection => ({
  connectionId: id, participantId: null, displayName: `Person ${id}`, feedId: null, screenFeedId: null, hasAudio: true, hasVideo: true, moderator: false, endToEnd: true, ...extra,
});

describe('status text', () => {
  it('follows the connection and the participant count', () => {
    expect(statusText('connecting', 0)).toBe('Ansluter...');
    expect(statusText('disconnected', 3)).toBe('Anslutning misslyckades');
    expect(statusText('connected', 1)).toBe('Ingen annan är ansluten till mötet');
    expect(statusText('connected', 2)).toBe('2 personer deltar i mötet');
  });
});

describe('initials and devices', () => {
  it('takes first and last word, or two letters of one word', () => {
    expect(initials('Erik Handläggare')).toBe('EH');
    expect(initials('anna maria svensson')).toBe('AS');
    expect(initials('örjan')).toBe('ÖR');
    expect(initials('  ')).toBe('');
  });
  it('matches the preferred device label case-insensitively', () => {
    const devices = [{ label: 'Fake Default Audio Input' }, { label: 'fake_audio_input_2' }];
    expect(matchDevice(devices, 'FAKE_AUDIO_INPUT_2')).toBe(devices[1]);
    expect(matchDevice(devices, 'other')).toBeNull();
  });
  it('knows the breakpoints', () => {
    expect(deviceFor(390, 844)).toBe('phone');
    expect(deviceFor(844, 390)).toBe('phone');
    expect(deviceFor(700, 1000)).toBe('tablet');
    expect(deviceFor(1100, 800)).toBe('tablet');
    expect(deviceFor(1280, 800)).toBe('desktop');
  });
  it('only raises the stored participant count', () => {
    expect(raisedCount('5', 3)).toBe(5);
    expect(raisedCount('2', 3)).toBe(3);
    expect(raisedCount(null, 1)).toBe(1);
    expect(raisedCount('garbage', 4)).toBe(4);
  });
});

describe('layout', () => {
  const tiles = (n: number) => Array.from({ length: n }, (_, i) => ({ streamId: `s${i}`, connectionId: `c${i}`, videoType: 'camera' as const }));
  it('puts up to 12 streams in the main grid with a class per count, the rest aside', () => {
    expect(layout({ tiles: tiles(3), focusedStreamId: null, showMinis: false })).toMatchObject({ mainClass: 'grid-3', side: [] });
    const big = layout({ tiles: tiles(14), focusedStreamId: null, showMinis: true });
    expect(big.main).toHaveLength(12);
    expect(big.mainClass).toBe('grid-12');
    expect(big.side).toHaveLength(2);
    expect(big.sideOneColumn).toBe(true);
    expect(big.showSide).toBe(true);
  });
  it('shows a focused stream alone, with the others as side tiles', () => {
    const l = layout({ tiles: tiles(5), focusedStreamId: 's2', showMinis: true });
    expect(l.main.map((t) => t.streamId)).toEqual(['s2']);
    expect(l.side).toHaveLength(4);
    expect(l.sideOneColumn).toBe(false);
    expect(l.mainClass).toBe('focus');
  });
  it('keeps the sharer\'s camera beside a focused screen share when minis are hidden', () => {
    const t = [
      { streamId: 'cam-a', connectionId: 'a', videoType: 'camera' as const },
      { streamId: 'scr-a', connectionId: 'a', videoType: 'screen' as const },
      { streamId: 'cam-b', connectionId: 'b', videoType: 'camera' as const },
    ];
    expect(layout({ tiles: t, focusedStreamId: 'scr-a', showMinis: false }).main.map((x) => x.streamId)).toEqual(['scr-a', 'cam-a']);
    expect(layout({ tiles: t, focusedStreamId: 'scr-a', showMinis: true }).main.map((x) => x.streamId)).toEqual(['scr-a']);
  });
});

describe('CallModel', () => {
  it('connects, lists streams as feeds appear and forgets them when connections go', () => {
    const m = new CallModel();
    m.setMeeting('m1', false, 'Erik');
    m.connecting();
    expect(m.getState().connectionStatus).toBe('connecting');
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a')] });
    expect(m.getState().connectionStatus).toBe('connected');
    expect(allTiles(m.getState())).toEqual([]);
    m.connectionUpdated(conn('a', { feedId: 7 }));
    m.ownAlive(true);
    expect(allTiles(m.getState()).map((t) => t.streamId)).toEqual([OWN_STREAM_ID, cameraStreamId('a')]);
    m.toggleFocus(cameraStreamId('a'));
    expect(m.getState().streamWithFocus).toEqual({ streamId: cameraStreamId('a'), connectionId: 'a' });
    m.toggleFocus(cameraStreamId('a'));
    expect(m.getState().streamWithFocus).toBeNull();
    m.maximise(cameraStreamId('a'));
    m.connectionDestroyed('a');
    expect(m.getState().streamWithFocus).toBeNull(); // the focused participant left
    expect(allTiles(m.getState()).map((t) => t.streamId)).toEqual([OWN_STREAM_ID]);
  });

  it('focuses a new remote screen share with minis, except on phones', () => {
    const m = new CallModel();
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { feedId: 1 })] });
    m.connectionUpdated(conn('a', { feedId: 1, screenFeedId: 2 }));
    expect(m.getState().streamWithFocus?.streamId).toBe(screenStreamId('a'));
    expect(m.getState().showMinis).toBe(true);
    const phone = new CallModel();
    phone.setDevice('phone');
    phone.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { feedId: 1 })] });
    phone.connectionUpdated(conn('a', { feedId: 1, screenFeedId: 2 }));
    expect(phone.getState().showMinis).toBe(false);
  });

  it('a takeover gives the new share the focus, whichever of the two announcements comes first', () => {
    for (const order of ['old share ends first', 'new share arrives first'] as const) {
      const m = new CallModel();
      m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { feedId: 1, screenFeedId: 2 }), conn('b', { feedId: 3 })] });
      expect(m.getState().streamWithFocus?.streamId).toBe(screenStreamId('a'));
      m.toggleMinis(true); // the viewer hid the minis
      expect(m.getState().showMinis).toBe(false);
      if (order === 'old share ends first') m.connectionUpdated(conn('a', { feedId: 1 }));
      m.connectionUpdated(conn('b', { feedId: 3, screenFeedId: 4 }));
      if (order === 'new share arrives first') m.connectionUpdated(conn('a', { feedId: 1 }));
      expect(m.getState().streamWithFocus, order).toEqual({ streamId: screenStreamId('b'), connectionId: 'b' });
      expect(m.getState().showMinis, order).toBe(true);
    }
  });

  it('a share already running when the page connects is focused too, with minis', () => {
    const m = new CallModel();
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { feedId: 1, screenFeedId: 2 })] });
    expect(m.getState().streamWithFocus).toEqual({ streamId: screenStreamId('a'), connectionId: 'a' });
    expect(m.getState().showMinis).toBe(true);
    const none = new CallModel();
    none.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me', { screenFeedId: 9 }), conn('a', { feedId: 1 })] });
    expect(none.getState().streamWithFocus).toBeNull(); // the own share is not focused
  });

  it('a share that started while the socket hung is focused when it resumes; one already seen is not focused again', () => {
    const m = new CallModel();
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { feedId: 1 })] });
    // The update announcing a's share was sent while this page's socket was dead: the resumed list brings it.
    m.resumed([conn('me'), conn('a', { feedId: 1, screenFeedId: 2 })]);
    expect(m.getState().streamWithFocus).toEqual({ streamId: screenStreamId('a'), connectionId: 'a' });
    m.minimise(); // the viewer unfocused it
    m.resumed([conn('me'), conn('a', { feedId: 1, screenFeedId: 2 })]);
    expect(m.getState().streamWithFocus).toBeNull();
  });

  it('a connection announced with its share running (the sharer\'s page started afresh) is focused', () => {
    const m = new CallModel();
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { feedId: 1 })] });
    m.connectionCreated(conn('c', { feedId: 5, screenFeedId: 6 }));
    expect(m.getState().streamWithFocus).toEqual({ streamId: screenStreamId('c'), connectionId: 'c' });
    m.connectionCreated(conn('d', { feedId: 7 }));
    expect(m.getState().streamWithFocus?.streamId).toBe(screenStreamId('c'));
  });

  it('a new share does not take the focus from a camera the viewer chose', () => {
    const m = new CallModel();
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { feedId: 1 }), conn('b', { feedId: 3 })] });
    m.maximise(cameraStreamId('a'));
    m.connectionUpdated(conn('b', { feedId: 3, screenFeedId: 4 }));
    expect(m.getState().streamWithFocus?.streamId).toBe(cameraStreamId('a'));
  });

  it('toggles minis only with side tiles and never on phones', () => {
    const m = new CallModel();
    m.toggleMinis(false);
    expect(m.getState().showMinis).toBe(false);
    m.toggleMinis(true);
    expect(m.getState().showMinis).toBe(true);
    m.setDevice('phone');
    m.toggleMinis(true);
    expect(m.getState().showMinis).toBe(false);
  });

  it("keeps errors by key, once each: the key's text, or the message given in its place (the server's answer)", () => {
    const m = new CallModel();
    m.addError('networkDisconnected');
    m.addError('networkDisconnected');
    m.addError('FORCE_MUTE_FAILED', 'Deltagaren har ingen påslagen mikrofon');
    m.addError('SCREEN_SHARE_FAILED', '');
    expect(m.getState().errors).toEqual([
      { key: 'networkDisconnected', message: 'Det är problem med anslutningen, ladda gärna om sidan.', visible: true, known: true },
      { key: 'FORCE_MUTE_FAILED', message: 'Deltagaren har ingen påslagen mikrofon', visible: true, known: true },
      { key: 'SCREEN_SHARE_FAILED', message: 'Det gick inte att dela skärmen.', visible: true, known: true },
    ]);
    m.removeError('networkDisconnected');
    expect(m.getState().errors.map((e) => e.key)).toEqual(['FORCE_MUTE_FAILED', 'SCREEN_SHARE_FAILED']);
  });

  it('says a media socket was refused by a cap until a socket is admitted again, the failure of the retries with it', () => {
    const m = new CallModel();
    m.connecting();
    m.addError('MEDIA_SOCKETS_FULL');
    m.connectionFailed('Det gick inte att nå mötets videoserver.');
    expect(m.getState().errors.map((e) => e.key)).toEqual(['MEDIA_SOCKETS_FULL', 'connectionFailed']);
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me')] });
    expect(m.getState().errors).toEqual([]);
  });

  it('fails a connection into disconnected with the failure error, and clears own flags when the camera dies', () => {
    const m = new CallModel();
    m.connecting();
    m.connectionFailed('Det gick inte att nå mötets videoserver.');
    expect(m.getState().connectionStatus).toBe('disconnected');
    expect(m.getState().errors[0]).toMatchObject({ message: 'Anslutning misslyckades', detail: 'Det gick inte att nå mötets videoserver.' });
    m.ownAlive(true);
    m.ownState(true, true);
    m.ownAlive(false);
    expect(m.getState().own).toMatchObject({ hasAudio: false, hasVideo: false, alive: false });
  });
});

describe('media reconnecting and a resumed connection', () => {
  it('keeps tiles and media while ICE restarts or the socket is replaced, unlike a full reconnect', () => {
    const m = new CallModel();
    m.connected({ connectionId: 'me', capabilities: caps, connections: [conn('me'), conn('a', { feedId: 3 })] });
    const stream = {} as MediaStream;
    m.remoteMedia(cameraStreamId('a'), stream);
    m.mediaReconnecting(true);
    expect(m.getState()).toMatchObject({ mediaReconnecting: true, connectionStatus: 'connected' });
    expect(m.getState().media[cameraStreamId('a')]).toBe(stream);
    m.resumed([conn('me'), conn('a', { feedId: 3 }), conn('b')]);
    expect(m.getState().connections.map((c) => c.connectionId)).toEqual(['me', 'a', 'b']);
    expect(m.getState().media[cameraStreamId('a')]).toBe(stream);
    m.mediaReconnecting(false);
    expect(m.getState().mediaReconnecting).toBe(false);
    // A full reconnect (new session) starts the tiles over.
    m.reconnecting();
    expect(m.getState().media).toEqual({});
  });
});

describe('a call that is not started', () => {
  it("a webcast visitor whose browser cannot encrypt: no endless 'Ansluter...', and the visitor's own text, not the meeting's", () => {
    const m = new CallModel();
    m.connecting();
    m.notStarted();
    m.addError('E2EE_UNSUPPORTED_VISITOR');
    expect(callStatus(m.getState())).toBe('Anslutning misslyckades');
    expect(showsSpinner(m.getState())).toBe(false);
    expect(m.getState().errors.map((e) => e.message)).toEqual([
      'Din webbläsare kan inte ta emot bild och ljud som är krypterade hela vägen, så du kan inte se eller höra mötet i den. Öppna länken i en aktuell version av Chrome, Edge, Firefox eller Safari.',
    ]);
  });
});
