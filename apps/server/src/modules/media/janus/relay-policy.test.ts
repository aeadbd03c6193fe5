import { describe, expect, it } from 'vitest';
import { SCREEN_HANDLE_TAG } from '@videomote/contract/media';
import { checkClientMessage, type RelayContext, type RelayState } from './relay-policy.ts';

const ROOM = 123456789;
const viewer: RelayContext = { roomId: ROOM, capabilities: { publish: false, subscribe: true, forceUnpublish: false, forceDisconnect: false }, display: '{"particpantId":null,"displayName":"Besökare"}' };
const member: RelayContext = { ...viewer, capabilities: { publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false }, display: '{"particpantId":"p1","displayName":"Erik Handläggare"}' };

function state(role: 'none' | 'publisher' | 'subscriber' = 'none'): RelayState {
  return { sessions: new Set([11]), handles: new Map([[22, { sessionId: 11, role }]]) };
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

  it('refuses every way of adding a feed that is not published in this room', () => {
    const s = state('subscriber');
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM, streams: [{ feed: 9 }] }), ctx, state())).toMatchObject({ ok: false, reason: 'not a feed of this room' });
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7 }, { feed: 9 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'not a feed of this room' });
    expect(checkClientMessage(msg({ request: 'subscribe', streams: [{ feed: 9 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'not a feed of this room' });
    expect(checkClientMessage(msg({ request: 'switch', streams: [{ feed: 9, mid: '0', sub_mid: '0' }] }), ctx, s)).toMatchObject({ ok: false, reason: 'not a feed of this room' });
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7, room: ROOM + 1 }] }), ctx, s)).toMatchObject({ ok: false, reason: 'another room' });
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: '7' }] }), ctx, s).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'update', subscribe: 'all' }), ctx, s).ok).toBe(false);
    expect(checkClientMessage(msg({ request: 'update', subscribe: Array.from({ length: 65 }, () => ({ feed: 7 })) }), ctx, s)).toMatchObject({ ok: false, reason: 'too many streams' });
    expect(checkClientMessage(msg({ request: 'join', ptype: 'subscriber', room: ROOM }), ctx, state())).toMatchObject({ ok: false, reason: 'streams must list feeds' });
    // A publisher handle cannot turn into a subscriber to add feeds.
    expect(checkClientMessage(msg({ request: 'update', subscribe: [{ feed: 7 }] }), ctx, state('publisher')).ok).toBe(false);
  });
});
