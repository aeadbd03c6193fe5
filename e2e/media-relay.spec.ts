import { describe, expect, it } from 'vitest';
import { insertMeeting } from '../apps/server/src/testing/fixtures.ts';
import type { SessionUser } from '../apps/server/src/platform/session.ts';
import { SCREEN_HANDLE_TAG } from '@videomote/contract/media';
import { personaByKey } from '../apps/server/src/modules/identity/personas.ts';
import { sessionUserFromClaims } from '../apps/server/src/modules/identity/session-user.ts';
import { RawMediaClient } from './support/media.ts';
import { useMediaServer } from './support/media-server.ts';

// The relay against the real embedded Janus (inside the test network namespace): what a browser may and may not
// make Janus do, whatever its client sends.
const server = useMediaServer();
const connect = server.connect;

const visitor = (meetingId: string, firstName = 'Besökare'): SessionUser => ({
  kind: 'anonymous', subject: `visitor-${meetingId}-${firstName}`, firstName, lastName: '', afId: null, pinHash: null, pinEncrypted: null,
  roles: [], features: [], userLevel: 'None', isAdmin: false, meetingId,
});

async function webcast() {
  return insertMeeting(server.t.db, server.t.app.deps.pins, {
    type: 1,
    start: new Date(Date.now() - 60_000),
    end: new Date(Date.now() + 3600_000),
    participants: [
      { persona: 'erik', role: 'PresenterInternal', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ],
  });
}

const refusal = (m: Record<string, unknown>) => (m.janus === 'error' ? String((m.error as { reason: string }).reason) : null);

describe('/media relay with a real Janus', () => {
  it('lets a presenter join as publisher under the server-made display', async () => {
    const m = await webcast();
    const { raw, hello } = await connect(await server.t.as('erik'), m.id);
    expect(hello).toMatchObject({ capabilities: { publish: true, subscribe: true }, roomId: expect.any(Number) });
    const { session, handle } = await raw.attach();
    const joined = await raw.request(
      { janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'publisher', room: hello.roomId, display: 'Anna Admin' } },
      true,
    );
    const data = (joined.plugindata as { data: Record<string, unknown> }).data;
    expect(data.videoroom).toBe('joined');
    // The display is the server's, whatever the client claimed.
    const participants = await raw.request({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'listparticipants', room: hello.roomId } });
    const list = (participants.plugindata as { data: { participants: { display: string }[] } }).data.participants;
    expect(list.map((p) => JSON.parse(p.display))).toEqual([{ particpantId: m.participantIds[0], displayName: 'Erik Handläggare' }]);
    raw.close();
  });

  it('refuses a webcast viewer\'s attempt to publish, in every form', async () => {
    const m = await webcast();
    for (const who of [await server.t.as('jonna'), await server.t.as(visitor(m.id))]) {
      const { raw, hello } = await connect(who, m.id);
      expect(hello).toMatchObject({ capabilities: { publish: false, subscribe: true } });
      const { session, handle } = await raw.attach();
      const send = (body: Record<string, unknown>, jsep?: Record<string, unknown>) =>
        raw.request({ janus: 'message', session_id: session, handle_id: handle, body, ...(jsep ? { jsep } : {}) }, true);
      expect(refusal(await send({ request: 'join', ptype: 'publisher', room: hello.roomId }))).toMatch(/no publish capability/);
      expect(refusal(await send({ request: 'joinandconfigure', ptype: 'publisher', room: hello.roomId }, { type: 'offer', sdp: 'v=0\r\n' }))).toMatch(/no publish capability/);
      expect(refusal(await send({ request: 'publish' }, { type: 'offer', sdp: 'v=0\r\n' }))).toMatch(/join the room first/);
      // A viewer may subscribe, but only to feeds published in this meeting's room (none yet).
      const sub = await send({ request: 'join', ptype: 'subscriber', room: hello.roomId, streams: [{ feed: 1 }] });
      expect(refusal(sub)).toMatch(/not a feed of this room/);
      raw.close();
    }
  });

  it('refuses a screen-share publisher to someone without the ScreenShare feature, and lets their camera join', async () => {
    const m = await insertMeeting(server.t.db, server.t.app.deps.pins, {
      start: new Date(Date.now() - 60_000),
      end: new Date(Date.now() + 3600_000),
      participants: [{ persona: 'erik', role: 'EmploymentOfficer', isAdmin: true }, { persona: 'jonna', role: 'JobSeeker' }],
    });
    // Every group shares by default; here the administrator has withdrawn it from externals (Grupper, read at login).
    const p = personaByKey('jonna');
    const withdrawn = sessionUserFromClaims(
      { sub: 'test-jonna', given_name: p.firstName, family_name: p.lastName, roles: p.roles, pin: p.pin },
      server.t.app.deps.pins,
      { Participant: { features: [], isAdmin: false } },
    );
    const { raw, hello } = await connect(await server.t.as(withdrawn), m.id);
    expect(hello).toMatchObject({ capabilities: { publish: true, screenShare: false } });
    const { session, handle: camera } = await raw.attach();
    const screen = ((await raw.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom', opaque_id: SCREEN_HANDLE_TAG })).data as { id: number }).id;
    const join = (handle: number) => raw.request({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'publisher', room: hello.roomId } }, true);
    expect(refusal(await join(screen))).toMatch(/no screen-share capability/);
    expect(refusal(await join(camera))).toBeNull();
    raw.close();
    const erik = await connect(await server.t.as('erik'), m.id);
    expect(erik.hello).toMatchObject({ capabilities: { publish: true, screenShare: true } });
    erik.raw.close();
  });

  it('refuses messages that address another room, carry a secret, or administer rooms', async () => {
    const m = await webcast();
    const { raw, hello } = await connect(await server.t.as('erik'), m.id);
    const { session, handle } = await raw.attach();
    const send = (body: Record<string, unknown>) => raw.request({ janus: 'message', session_id: session, handle_id: handle, body }, true);
    expect(refusal(await send({ request: 'join', ptype: 'publisher', room: (hello.roomId as number) + 1 }))).toMatch(/another room/);
    expect(refusal(await send({ request: 'listparticipants', room: 1234 }))).toMatch(/another room/);
    expect(refusal(await send({ request: 'join', ptype: 'publisher', room: hello.roomId, secret: 'guess' }))).toMatch(/"secret" is not accepted/);
    expect(refusal(await send({ request: 'create', room: 99, admin_key: 'guess' }))).toMatch(/not accepted|not allowed/);
    for (const request of ['create', 'destroy', 'edit', 'kick', 'moderate', 'allowed', 'list', 'exists', 'rtp_forward']) {
      expect(refusal(await send({ request, room: hello.roomId })), request).toMatch(/not allowed/);
    }
    expect(refusal(await raw.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.echotest' }))).toMatch(/only the videoroom plugin/);
    expect(refusal(await raw.request({ janus: 'create', token: 'forged' }))).toMatch(/"token" is not accepted/);
    expect(refusal(await raw.request({ janus: 'attach', session_id: session + 1, plugin: 'janus.plugin.videoroom' }))).toMatch(/unknown session/);
    raw.close();
  });

  it('gives a stranger no token and no media connection', async () => {
    const m = await webcast();
    const karin = await server.t.as('karin');
    expect((await karin.post('/api/meeting/gettoken', { meetingId: m.id, displayName: 'K' })).statusCode).toBe(403);
    const erik = await server.t.as('erik');
    expect((await erik.post(`/api/lobby/${m.id}/consent`, {})).statusCode).toBe(200);
    const erikToken = (await erik.post('/api/meeting/gettoken', { meetingId: m.id })).json().data.tokenData.token as string;
    const cookie = Object.entries(karin.cookies).map(([k, v]) => `${k}=${v}`).join('; ');
    await expect(RawMediaClient.open(`${server.base}/media/${m.id}?token=${encodeURIComponent(erikToken)}`, cookie)).rejects.toThrow('HTTP 403');
  });

  it('announces connections and their published feeds to everyone in the meeting', async () => {
    const m = await webcast();
    const viewer = await connect(await server.t.as('jonna'), m.id);
    const presenter = await connect(await server.t.as('erik'), m.id);
    const created = await viewer.raw.waitFor((x) => x.videomote === 'connectionCreated');
    expect(created).toMatchObject({ connection: { displayName: 'Erik Handläggare', participantId: m.participantIds[0], feedId: null } });
    presenter.raw.ws.send(JSON.stringify({ videomote: 'state', hasAudio: true, hasVideo: false }));
    await viewer.raw.waitFor((x) => x.videomote === 'connectionUpdated' && (x.connection as { hasAudio: boolean }).hasAudio === true);
    // A viewer cannot change its own announced media state.
    viewer.raw.ws.send(JSON.stringify({ videomote: 'state', hasAudio: true, hasVideo: true }));
    presenter.raw.close();
    await viewer.raw.waitFor((x) => x.videomote === 'connectionDestroyed');
    expect(server.t.app.media.connections(m.id).map((c) => c.hasVideo)).toEqual([false]);
    viewer.raw.close();
  });

  it('lets a meeting admin remove a connection with the room secret, and nobody else', async () => {
    const m = await webcast();
    const viewer = await connect(await server.t.as(visitor(m.id)), m.id);
    const erik = await server.t.as('erik');
    const presenter = await connect(erik, m.id);
    const target = String(viewer.hello.connectionId);
    const jonna = await server.t.as('jonna');
    expect((await jonna.post(`/api/media/${m.id}/kick`, { connectionId: String(presenter.hello.connectionId) })).statusCode).toBe(403);
    // Screen-share takeover needs a screen share to take over.
    const takeover = await erik.post(`/api/media/${m.id}/forceunpublish`, { connectionId: target });
    expect(takeover.statusCode).toBe(409);
    expect(takeover.json().message).toBe('Ingen skärmdelning att avsluta');
    const closed = new Promise<number>((resolve) => viewer.raw.ws.once('close', (code) => resolve(code)));
    expect((await erik.post(`/api/media/${m.id}/kick`, { connectionId: target })).statusCode).toBe(200);
    await viewer.raw.waitFor((x) => x.videomote === 'forceDisconnected');
    expect(await closed).toBe(4002);
    await presenter.raw.waitFor((x) => x.videomote === 'connectionDestroyed' && x.connectionId === target);
    expect((await erik.post(`/api/media/${m.id}/kick`, { connectionId: target })).statusCode).toBe(404);
    presenter.raw.close();
  });

  it('destroys a meeting\'s room once the meeting is over and nobody is connected', async () => {
    const m = await webcast();
    const { raw, hello } = await connect(await server.t.as('erik'), m.id);
    const control = await server.t.app.media.pool.get('embedded');
    expect(await control.roomExists(hello.roomId as number)).toBe(true);
    server.t.clock.advance(2 * 3600_000);
    expect(await server.t.app.media.sweep()).toBe(0); // still connected
    raw.close();
    await expect.poll(() => server.t.app.media.connections(m.id).length).toBe(0);
    expect(await server.t.app.media.sweep()).toBe(1);
    expect(await control.roomExists(hello.roomId as number)).toBe(false);
    expect(await server.t.db.query('SELECT 1 FROM media_rooms WHERE meeting_id = $1', [m.id])).toEqual([]);
    server.t.clock.set(new Date());
  });

  it('announces a webcast visitor under the name of their session, and shows visitors the presenters only', async () => {
    const m = await webcast();
    const presenter = await connect(await server.t.as('erik'), m.id);
    // The browser asks for another, longer name: the media server shows the one checked at the entrance.
    const sara = await connect(await server.t.as(visitor(m.id, 'Sara')), m.id, 'Anna Admin (moderator)');
    const created = await presenter.raw.waitFor((x) => x.videomote === 'connectionCreated' && (x.connection as { connectionId: string }).connectionId === sara.hello.connectionId);
    expect((created.connection as { displayName: string }).displayName).toBe('Sara');
    const olle = await connect(await server.t.as(visitor(m.id, 'Olle')), m.id);
    await presenter.raw.waitFor((x) => x.videomote === 'connectionCreated' && (x.connection as { connectionId: string }).connectionId === olle.hello.connectionId);
    // Olle learns of the presenter and himself, not of Sara; the presenter sees everyone.
    const names = (hello: Record<string, unknown>) => (hello.connections as { displayName: string }[]).map((c) => c.displayName).sort();
    expect(names(olle.hello)).toEqual(['Erik Handläggare', 'Olle']);
    expect(server.t.app.media.connections(m.id).map((c) => c.displayName).sort()).toEqual(['Erik Handläggare', 'Olle', 'Sara']);
    // Janus's own lists name publishers only, and only presenters may publish in a webcast.
    const { session, handle } = await olle.raw.attach();
    const { session: ps, handle: ph } = await presenter.raw.attach();
    await presenter.raw.request({ janus: 'message', session_id: ps, handle_id: ph, body: { request: 'join', ptype: 'publisher', room: presenter.hello.roomId } }, true);
    const listed = await olle.raw.request({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'listparticipants', room: olle.hello.roomId } });
    const displays = (listed.plugindata as { data: { participants: { display: string }[] } }).data.participants.map((p) => JSON.parse(p.display).displayName);
    expect(displays).toEqual(['Erik Handläggare']);
    // Sara leaves: the presenter is told, Olle never heard of her.
    sara.raw.close();
    await presenter.raw.waitFor((x) => x.videomote === 'connectionDestroyed' && x.connectionId === sara.hello.connectionId);
    const aboutSara = (x: Record<string, unknown>) => JSON.stringify(x).includes(String(sara.hello.connectionId)) || JSON.stringify(x).includes('Sara');
    expect(olle.raw.own.filter(aboutSara)).toEqual([]);
    olle.raw.close();
    presenter.raw.close();
  });
});
