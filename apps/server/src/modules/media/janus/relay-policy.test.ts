import { describe, expect, it } from 'vitest';
import { SCREEN_HANDLE_TAG } from '@videomote/contract/media';
import {
  MAX_HANDLES_PER_SESSION,
  MAX_PENDING,
  MAX_PUBLISHERS_PER_PERSON,
  MAX_SESSIONS,
  checkClientMessage,
  emptyRelayState,
  peerConnectionsOf,
  type PeerConnectionUsage,
  type RelayContext,
  type RelayState,
} from './relay-policy.ts';

const ROOM = 123456789;
const viewer: RelayContext = { roomId: ROOM, capabilities: { publish: false, subscribe: true, forceUnpublish: false, forceDisconnect: false, screenShare: false }, display: '{"particpantId":null,"displayName":"Besökare"}' };
const member: RelayContext = { ...viewer, capabilities: { publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false, screenShare: true }, display: '{"particpantId":"p1","displayName":"Erik Handläggare"}' };

function state(role: 'none' | 'publisher' | 'subscriber' = 'none'): RelayState {
  return { sessions: new Set([11]), handles: new Map([[22, { sessionId: 11, role }]]), pending: new Map() };
}
const msg = (body: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ janus: 'message', transaction: 't1', session_id: 11, handle_id: 22, body, ...extra });

describe('relay policy', () => {
  it('lets a participant join as publisher, with the server display and without a client id', () => {
    const r = checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM, display: '{"particpantId":"someone-else","displayName":"Anna Admin"}' }), member, state());
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.message.body).toEqual({ request: 'join', ptype: 'publisher', room: ROOM, display: member.display });
    const withId = checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM, id: 5 }), member, state());
    expect(withId.ok).toBe(false);
  });

  it('refuses a webcast viewer every way of publishing', () => {
    expect(checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM }), viewer, state())).toMatchObject({ ok: false, reason: 'no publish capability' });
    expect(checkClientMessage(msg({ request: 'joinandconfigure', ptype: 'publisher', room: ROOM }, { jsep: { type: 'offer', sdp: 'v=0' } }), viewer, state()).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'publish' }, { jsep: { type: 'offer', sdp: 'v=0' } }), viewer, state('publisher')).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'configure', audio: true }, { jsep: { type: 'offer', sdp: 'v=0' } }), viewer, state('subscriber')).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'configure' }, { jsep: { type: 'offer', sdp: 'v=0' } }), viewer, state()).ok).toBe(false);
  });

  it('lets a viewer subscribe and answer', () => {
    const s = state();
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM, streams: [{ feed: 7 }] }), viewer, s).ok).toBe(true);
    expect(s.handles.get(22)!.role).toBe('subscriber');
    expect(checkClientMessage(msg({ request: 'start' }, { jsep: { type: 'answer', sdp: 'v=0' } }), viewer, s).ok).toBe(true);
  });

  it('refuses another room', () => {
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM + 1, streams: [{ feed: 7 }] }), member, state())).toMatchObject({ ok: false, reason: 'another room' });
    expect(checkClientMessage(msg({ request: 'listparticipants', room: 1 }), member, state()).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', streams: [{ feed: 7 }] }), member, state()).ok).toBe(false);
  });

  it('refuses secrets, admin keys and tokens anywhere in a message', () => {
    expect(checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM, secret: 'x' }), member, state())).toMatchObject({ ok: false });
    expect(checkClientMessage({ janus: 'create', transaction: 'a', token: 'forged' }, member, state()).ok).toBe(false);
    expect(checkClientMessage({ janus: 'create', transaction: 'a', apisecret: 'x' }, member, state()).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'configure', nested: [{ admin_key: 'k' }] }), member, state('publisher')).ok).toBe(false);
  });

  it('refuses room administration and moderation requests', () => {
    for (const request of ['create', 'destroy', 'edit', 'kick', 'moderate', 'allowed', 'exists', 'list', 'enable_recording', 'rtp_forward', 'listforwarders']) {
      expect(checkClientMessage(msg({ request, room: ROOM }), member, state()).ok, request).toBe(false);
    }
  });

  it('refuses other plugins, unknown sessions and handles, and admin-level Janus requests', () => {
    expect(checkClientMessage({ janus: 'attach', transaction: 'a', session_id: 11, plugin: 'janus.plugin.echotest' }, member, state()).ok).toBe(false);
    expect(checkClientMessage({ janus: 'attach', transaction: 'a', session_id: 12, plugin: 'janus.plugin.videoroom' }, member, state()).ok).toBe(false);
    expect(checkClientMessage({ janus: 'attach', transaction: 'a', session_id: 11, plugin: 'janus.plugin.videoroom' }, member, state()).ok).toBe(true);
    expect(checkClientMessage({ ...msg({ request: 'configure' }), handle_id: 23 }, member, state('publisher')).ok).toBe(false);
    expect(checkClientMessage({ janus: 'info', transaction: 'a' }, member, state()).ok).toBe(false);
    // Claiming is how a browser resumes its own session on a new socket; another session's id is unknown here.
    expect(checkClientMessage({ janus: 'claim', transaction: 'a', session_id: 11 }, member, state())).toMatchObject({ ok: true, expect: { kind: 'claim', sessionId: 11 } });
    expect(checkClientMessage({ janus: 'claim', transaction: 'a', session_id: 12 }, member, state()).ok).toBe(false);
    expect(checkClientMessage({ janus: 'create' }, member, state()).ok).toBe(false); // no transaction
  });

  it('drops recording options and overwrites a display change on configure', () => {
    expect(checkClientMessage(msg({ request: 'configure', record: true }), member, state('publisher')).ok).toBe(false);
    const r = checkClientMessage(msg({ request: 'configure', audio: true, display: 'Fake' }, { jsep: { type: 'offer', sdp: 'v=0' } }), member, state('publisher'));
    expect(r).toMatchObject({ ok: true, expect: { kind: 'publish', handleId: 22 } });
    if (r.ok) expect(r.message.body).toEqual({ request: 'configure', audio: true, display: member.display });
  });

  it('remembers a handle attached with the screen-share tag, so its feed is announced as the share', () => {
    const attach = (opaque?: string) => checkClientMessage({ janus: 'attach', transaction: 'a', session_id: 11, plugin: 'janus.plugin.videoroom', opaque_id: opaque }, member, state());
    expect(attach(SCREEN_HANDLE_TAG)).toMatchObject({ ok: true, expect: { kind: 'attach', sessionId: 11, videoType: 'screen' }, message: { opaque_id: SCREEN_HANDLE_TAG } });
    expect(attach()).toEqual(expect.objectContaining({ ok: true, expect: { kind: 'attach', sessionId: 11 } }));
    expect(attach('something-else')).toEqual(expect.objectContaining({ ok: true, expect: { kind: 'attach', sessionId: 11 } }));
  });

  describe('resource caps', () => {
    // What the relay does with an accepted request: remember it until Janus answers.
    const relay = (state: RelayState, ctx: RelayContext, m: Record<string, unknown>) => {
      const r = checkClientMessage(m, ctx, state);
      if (r.ok && r.expect.kind !== 'none') state.pending.set(r.message.transaction as string, r.expect);
      return r;
    };

    it('counts a create or attach Janus has not answered yet, so a burst stays within the caps', () => {
      const s = emptyRelayState();
      const creates = Array.from({ length: 10 }, (_, i) => relay(s, member, { janus: 'create', transaction: `c${i}` }));
      expect(creates.filter((r) => r.ok)).toHaveLength(MAX_SESSIONS);
      expect(creates.at(-1)).toMatchObject({ ok: false, reason: 'too many sessions' });
      // Janus answered one: still two in all.
      s.pending.delete('c0');
      s.sessions.add(11);
      expect(relay(s, member, { janus: 'create', transaction: 'c-late' }).ok).toBe(false);

      const attaches = Array.from({ length: MAX_HANDLES_PER_SESSION + 10 }, (_, i) =>
        relay(s, member, { janus: 'attach', transaction: `a${i}`, session_id: 11, plugin: 'janus.plugin.videoroom' }),
      );
      expect(attaches.filter((r) => r.ok)).toHaveLength(MAX_HANDLES_PER_SESSION);
      expect(attaches.at(-1)).toMatchObject({ ok: false, reason: 'too many handles' });
    });

    it('bounds the requests awaiting an answer and refuses a transaction already in flight', () => {
      const s = state();
      for (let i = 0; i < MAX_PENDING; i++) s.pending.set(`p${i}`, { kind: 'detach', handleId: 1 });
      expect(checkClientMessage({ janus: 'keepalive', transaction: 'k', session_id: 11 }, member, s)).toMatchObject({ ok: false, reason: 'too many requests awaiting an answer' });
      const t = state();
      t.pending.set('t1', { kind: 'create' });
      expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM, streams: [{ feed: 7 }] }), viewer, t)).toMatchObject({ ok: false, reason: 'transaction already in use' });
    });

    const withUsage = (ctx: RelayContext, usage: Omit<PeerConnectionUsage, 'limits'>, perPerson = 3, perMeeting = 10): RelayContext => ({
      ...ctx,
      peerConnections: () => ({ ...usage, limits: { perPerson, perMeeting } }),
    });

    it('refuses a join past the per-participant and per-meeting PeerConnection caps, and counts the join at once', () => {
      const join = (ctx: RelayContext, s: RelayState) => checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM, streams: [{ feed: 7 }] }), ctx, s);
      const free = withUsage(viewer, { person: { peerConnections: 2, publishers: 0 }, meeting: { peerConnections: 9 } });
      const s = state();
      expect(join(free, s)).toMatchObject({ ok: true, expect: { kind: 'subscriber-join', handleId: 22 } });
      expect(peerConnectionsOf(s)).toEqual({ peerConnections: 1, publishers: 0 });
      expect(join(withUsage(viewer, { person: { peerConnections: 3, publishers: 0 }, meeting: { peerConnections: 3 } }), state())).toMatchObject({
        ok: false,
        reason: 'too many peer connections for one participant',
      });
      const meetingFull = withUsage(member, { person: { peerConnections: 0, publishers: 0 }, meeting: { peerConnections: 10 } });
      expect(join(meetingFull, state())).toMatchObject({ ok: false, reason: 'too many peer connections in this meeting' });
      expect(checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM }), meetingFull, state())).toMatchObject({ ok: false, reason: 'too many peer connections in this meeting' });
      const manyPublishers = withUsage(member, { person: { peerConnections: 0, publishers: MAX_PUBLISHERS_PER_PERSON }, meeting: { peerConnections: 0 } });
      expect(checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM }), manyPublishers, state())).toMatchObject({ ok: false, reason: 'too many publishers' });
    });

    it('refuses an attach or a join once the person, session or address holds its cap across sockets, meetings and nodes', () => {
      const caps = { handles: { person: 5, session: 4, address: 50 }, peerConnections: { person: 3, session: 2, address: 20 } };
      const holding = (handles: [number, number, number], pcs: [number, number, number]): RelayContext => ({
        ...member,
        holds: () => ({
          held: { handles: { person: handles[0], session: handles[1], address: handles[2] }, peerConnections: { person: pcs[0], session: pcs[1], address: pcs[2] } },
          caps,
        }),
      });
      const attach = (ctx: RelayContext) => checkClientMessage({ janus: 'attach', transaction: 'a', session_id: 11, plugin: 'janus.plugin.videoroom' }, ctx, state());
      const join = (ctx: RelayContext) => checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM, streams: [{ feed: 7 }] }), ctx, state());
      const publish = (ctx: RelayContext) => checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM }), ctx, state());
      expect(attach(holding([4, 3, 49], [0, 0, 0])).ok).toBe(true);
      expect(attach(holding([5, 0, 0], [0, 0, 0]))).toMatchObject({ ok: false, reason: 'too many handles for one person' });
      expect(attach(holding([0, 4, 0], [0, 0, 0]))).toMatchObject({ ok: false, reason: 'too many handles for one session' });
      expect(attach(holding([0, 0, 50], [0, 0, 0]))).toMatchObject({ ok: false, reason: 'too many handles for one client address' });
      expect(join(holding([0, 0, 0], [2, 1, 19])).ok).toBe(true);
      expect(join(holding([0, 0, 0], [3, 0, 0]))).toMatchObject({ ok: false, reason: 'too many peer connections for one person' });
      expect(publish(holding([0, 0, 0], [0, 2, 0]))).toMatchObject({ ok: false, reason: 'too many peer connections for one session' });
      expect(join(holding([0, 0, 0], [0, 0, 20]))).toMatchObject({ ok: false, reason: 'too many peer connections for one client address' });
      // With the per-meeting usage present as well, both are checked.
      const both = { ...holding([0, 0, 0], [3, 0, 0]), peerConnections: () => ({ person: { peerConnections: 0, publishers: 0 }, meeting: { peerConnections: 0 }, limits: { perPerson: 9, perMeeting: 9 } }) };
      expect(join(both)).toMatchObject({ ok: false, reason: 'too many peer connections for one person' });
    });

    it('counts a multistream subscriber handle as one PeerConnection whatever it subscribes to', () => {
      const full = withUsage(viewer, { person: { peerConnections: 3, publishers: 0 }, meeting: { peerConnections: 10 } });
      const s = state('subscriber');
      expect(peerConnectionsOf(s)).toEqual({ peerConnections: 1, publishers: 0 });
      const streams = Array.from({ length: 20 }, (_, i) => ({ feed: i + 1 }));
      // Adding and dropping feeds on the joined handle opens no PeerConnection: allowed even at the caps.
      expect(checkClientMessage(msg({ request: 'subscribe', streams }), full, s).ok).toBe(true);
      expect(checkClientMessage(msg({ request: 'unsubscribe', streams: [{ feed: 3 }] }), full, s).ok).toBe(true);
      expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 21 }], unsubscribe: [{ feed: 1 }] }), full, s).ok).toBe(true);
      expect(checkClientMessage(msg({ request: 'start' }, { jsep: { type: 'answer', sdp: 'v=0' } }), full, s).ok).toBe(true);
      expect(peerConnectionsOf(s)).toEqual({ peerConnections: 1, publishers: 0 });
    });

    it('refuses a publish at once when the capability was taken away while connected', () => {
      const ctx: RelayContext = { ...member, capabilities: { ...member.capabilities } };
      const s = state('publisher');
      ctx.capabilities.publish = false;
      expect(checkClientMessage(msg({ request: 'configure', audio: true }, { jsep: { type: 'offer', sdp: 'v=0' } }), ctx, s)).toMatchObject({ ok: false, reason: 'no publish capability' });
      expect(checkClientMessage(msg({ request: 'unpublish' }), ctx, s).ok).toBe(true);
    });
  });
});

describe('relay policy: screen shares', () => {
  const screenState = (role: 'none' | 'publisher' = 'none'): RelayState => ({ sessions: new Set([11]), handles: new Map([[22, { sessionId: 11, role, videoType: 'screen' as const }]]), pending: new Map() });
  const offer = { jsep: { type: 'offer', sdp: 'v=0' } };

  it('refuses every screen publish of a connection without the ScreenShare feature, and leaves its camera alone', () => {
    const noScreen: RelayContext = { ...member, capabilities: { ...member.capabilities, screenShare: false } };
    expect(checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM }), noScreen, screenState())).toMatchObject({ ok: false, reason: 'no screen-share capability' });
    expect(checkClientMessage(msg({ request: 'joinandconfigure', ptype: 'publisher', room: ROOM }, offer), noScreen, screenState()).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'configure', video: true }, offer), noScreen, screenState('publisher')).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'joinandconfigure', ptype: 'publisher', room: ROOM }, offer), noScreen, state()).ok).toBe(true);
  });

  it('refuses a second sharer\'s offer while another connection shares, and lets it through once the room is free', () => {
    let otherSharing = true;
    const ctx: RelayContext = { ...member, otherScreenShare: () => otherSharing };
    const s = screenState();
    expect(checkClientMessage(msg({ request: 'join', ptype: 'publisher', room: ROOM }), ctx, s).ok).toBe(true);
    expect(checkClientMessage(msg({ request: 'configure', video: true }, offer), ctx, s)).toMatchObject({ ok: false, reason: expect.stringMatching(/take over first/) });
    expect(checkClientMessage(msg({ request: 'joinandconfigure', ptype: 'publisher', room: ROOM }, offer), ctx, screenState()).ok).toBe(false);
    otherSharing = false; // the takeover's forceunpublish stopped the other share
    expect(checkClientMessage(msg({ request: 'configure', video: true }, offer), ctx, s).ok).toBe(true);
    // A camera publish is never held up by someone else's screen share.
    otherSharing = true;
    expect(checkClientMessage(msg({ request: 'joinandconfigure', ptype: 'publisher', room: ROOM }, offer), ctx, state()).ok).toBe(true);
  });
});

describe('relay policy for the one subscriber connection (multistream)', () => {
  const feedsOfRoom = new Set([7, 8]);
  const ctx: RelayContext = { ...member, roomFeed: (feed) => feedsOfRoom.has(feed) };

  it('lets a subscriber join with, add, drop and update feeds of its own room', () => {
    const s = state();
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM, streams: [{ feed: 7 }] }), ctx, s).ok).toBe(true);
    const update = checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 8 }], unsubscribe: [{ feed: 7 }] }), ctx, s);
    expect(update).toMatchObject({ ok: true, message: { body: { request: 'update', subscribe: [{ feed: 8 }], unsubscribe: [{ feed: 7 }] } } });
    expect(checkClientMessage(msg({ request: 'subscribe', streams: [{ feed: 8, mid: '1' }] }), ctx, s).ok).toBe(true);
    expect(checkClientMessage(msg({ request: 'unsubscribe', streams: [{ feed: 99 }] }), ctx, s).ok).toBe(true);
    expect(checkClientMessage(msg({ request: 'update', unsubscribe: [{ feed: 8 }] }), ctx, s).ok).toBe(true);
    expect(checkClientMessage(msg({ request: 'configure', restart: true }), ctx, s)).toMatchObject({ ok: true, message: { body: { request: 'configure', restart: true } } });
  });

  it('lets a subscriber choose, per mid, whether and which simulcast layer Janus forwards, and nothing else', () => {
    const s = state('subscriber');
    const streams = [{ mid: '1', send: true, substream: 0, temporal: 1 }, { mid: '3', send: false }];
    expect(checkClientMessage(msg({ request: 'configure', streams }), ctx, s)).toMatchObject({ ok: true, message: { body: { request: 'configure', streams } } });
    expect(checkClientMessage(msg({ request: 'configure', streams: [{ mid: '1', substream: 3 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'substream is 0, 1 or 2' });
    expect(checkClientMessage(msg({ request: 'configure', streams: [{ mid: '1', temporal: -1 }] }), ctx, s).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'configure', streams: [{ mid: '1', send: 'yes' }] }), ctx, s).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'configure', streams: [{ mid: '1', min_delay: 5000 }] }), ctx, s)).toMatchObject({ ok: false, reason: '"min_delay" is not a layer option' });
    expect(checkClientMessage(msg({ request: 'configure', streams: [{ substream: 1 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'a stream names its mid' });
    expect(checkClientMessage(msg({ request: 'configure', streams: [] }), ctx, s).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'configure', streams: Array.from({ length: 65 }, (_, i) => ({ mid: String(i), send: true })) }), ctx, s)).toMatchObject({ ok: false, reason: 'too many streams' });
  });

  it('refuses every way of adding a feed that is not published in this room', () => {
    const s = state('subscriber');
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM, streams: [{ feed: 9 }] }), ctx, state())).toMatchObject({ ok: false, reason: 'not a feed of this room' });
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7 }, { feed: 9 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'not a feed of this room' });
    expect(checkClientMessage(msg({ request: 'subscribe', streams: [{ feed: 9 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'not a feed of this room' });
    expect(checkClientMessage(msg({ request: 'switch', streams: [{ feed: 9, mid: '0', sub_mid: '0' }] }), ctx, s)).toMatchObject({ ok: false, reason: 'not a feed of this room' });
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7, room: ROOM + 1 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'another room' });
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: '7' }] }), ctx, s).ok).toBe(false);
    // An entry may start its video at a layer, and name nothing else Janus would take.
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7, substream: 0, temporal: 1 }] }), ctx, s).ok).toBe(true);
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7, substream: 3 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'substream is 0, 1 or 2' });
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7, min_delay: 5000 }] }), ctx, s)).toMatchObject({ ok: false, reason: '"min_delay" is not a stream option' });
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM, streams: [{ feed: 7, mid: {} }] }), ctx, state())).toMatchObject({ ok: false, reason: 'mid must be a mid' });
    expect(checkClientMessage(msg({ request: 'update', subscribe: 'all' }), ctx, s).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'update', subscribe: Array.from({ length: 65 }, () => ({ feed: 7 })) }), ctx, s)).toMatchObject({ ok: false, reason: 'too many streams' });
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM }), ctx, state())).toMatchObject({ ok: false, reason: 'streams must list feeds' });
    // A publisher handle cannot turn into a subscriber to add feeds.
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7 }] }), ctx, state('publisher')).ok).toBe(false);
  });
});
