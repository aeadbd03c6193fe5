import { describe, expect, it } from 'vitest';
import type { TestClient } from '../../testing/test-app.ts';
import { useTestApp } from '../../testing/use-test-app.ts';
import { listRoutes } from '../../testing/app-routes.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';
import { membershipOf } from '../meetings/meeting-membership.ts';

const t = useTestApp('2026-11-20T09:00:00+01:00');

const webcast = (start: string, end: string, type: 0 | 1 = 1) =>
  insertMeeting(t.db, t.app.deps.pins, {
    type,
    start,
    end,
    participants: [{ persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true }],
  });
const today = () => webcast('2026-11-20T14:00:00+01:00', '2026-11-20T15:00:00+01:00');
const roomError = (field: string, message: string) => ({ message, errors: [{ fields: [field], message }] });

/** Enters a webcast by its link as a new anonymous visitor; answers the visitor's client. */
async function enter(roomId: string, displayName = 'Sara'): Promise<TestClient & { meetingId: string }> {
  const res = await t.anonymous().post(`/api/publicaccess/${roomId}`, { displayName });
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
  const client = t.anonymous();
  client.cookies[SESSION_COOKIE] = cookie;
  return Object.assign(client, { meetingId: res.json().data.meetingId as string });
}

describe('GET /api/meeting/getidbyroomid/{roomId}', () => {
  it('answers the meeting id of a webcast today, before and while it runs, without any login', async () => {
    const w = await today();
    const before = await t.anonymous().get(`/api/meeting/getidbyroomid/${w.roomId}`);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ data: { meetingId: w.id } });
    t.clock.set('2026-11-20T14:30:00+01:00');
    expect((await t.anonymous().get(`/api/meeting/getidbyroomid/${w.roomId}`)).json().data.meetingId).toBe(w.id);
    expect((await (await t.as('jonna')).get(`/api/meeting/getidbyroomid/${w.roomId}`)).statusCode).toBe(200);
  });

  it('answers roomId for an unknown or malformed link', async () => {
    for (const room of ['AAAAAAAAAAAAAAAAAAAAAAAA', 'x', '%3Cscript%3E', 'a'.repeat(90)]) {
      const res = await t.anonymous().get(`/api/meeting/getidbyroomid/${room}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ name: 'NotFound', ...roomError('roomId', 'Länken fungerar inte') });
    }
  });

  it("refuses a conversation meeting's room exactly like an unknown link", async () => {
    const m = await webcast('2026-11-20T14:00:00+01:00', '2026-11-20T15:00:00+01:00', 0);
    const res = await t.anonymous().get(`/api/meeting/getidbyroomid/${m.roomId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject(roomError('roomId', 'Länken fungerar inte'));
  });

  it('answers startTime for a webcast on a later day, until that day comes', async () => {
    const w = await webcast('2026-11-21T10:00:00+01:00', '2026-11-21T11:00:00+01:00');
    const res = await t.anonymous().get(`/api/meeting/getidbyroomid/${w.roomId}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ name: 'Forbidden', ...roomError('startTime', 'Mötet är inte idag') });
    t.clock.set('2026-11-21T00:00:00+01:00');
    expect((await t.anonymous().get(`/api/meeting/getidbyroomid/${w.roomId}`)).statusCode).toBe(200);
  });

  it('answers endTime once the webcast has ended', async () => {
    const w = await webcast('2026-11-20T07:00:00+01:00', '2026-11-20T08:00:00+01:00');
    const res = await t.anonymous().get(`/api/meeting/getidbyroomid/${w.roomId}`);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ name: 'Gone', ...roomError('endTime', 'Mötet har redan varit') });
  });
});

describe('POST /api/publicaccess/{roomId}', () => {
  it('starts an anonymous session scoped to that webcast, with the Webcast variant cookie', async () => {
    const w = await today();
    const res = await t.anonymous().post(`/api/publicaccess/${w.roomId}`, { displayName: '  Sara  L ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { meetingId: w.id, displayName: 'Sara L' } });
    const session = res.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(session).toMatchObject({ httpOnly: true, path: '/' });
    expect(res.cookies.find((c) => c.name === 'authenticationvariant')).toMatchObject({ value: 'Webcast', path: '/' });

    const visitor = await enter(w.roomId);
    const me = (await visitor.get('/api/login/getuserdata')).json().data;
    expect(me).toMatchObject({ identityKind: 'anonymous', meetingId: w.id, features: [], afRole: [], isAdmin: false, ciamGivenName: 'Sara' });
    const user = (await t.app.deps.sessions.find(visitor.cookies[SESSION_COOKIE]!))!.user;
    expect(await membershipOf(t.db, w.id, user)).toMatchObject({ kind: 'visitor' });
    const other = await webcast('2026-11-20T16:00:00+01:00', '2026-11-20T17:00:00+01:00');
    expect(await membershipOf(t.db, other.id, user)).toBeNull();
  });

  it.each([[undefined], [''], ['   '], ['abcdefghijklm'], ['\u0000\u0001']])('requires a name of at most 12 characters (%j)', async (displayName) => {
    const w = await today();
    const res = await t.anonymous().post(`/api/publicaccess/${w.roomId}`, displayName === undefined ? {} : { displayName });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      name: 'ValidationError',
      message: 'Namn är obligatoriskt',
      statusCode: 400,
      errors: [{ fields: ['displayName'], message: 'Namn är obligatoriskt' }],
    });
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it('accepts exactly 12 characters, counting letters like å as one', async () => {
    const w = await today();
    expect((await t.anonymous().post(`/api/publicaccess/${w.roomId}`, { displayName: 'Åsa Öberg-Ek' })).statusCode).toBe(200);
  });

  it('applies the same link rules as the lookup', async () => {
    const tomorrow = await webcast('2026-11-21T10:00:00+01:00', '2026-11-21T11:00:00+01:00');
    const ended = await webcast('2026-11-20T07:00:00+01:00', '2026-11-20T08:00:00+01:00');
    const meeting = await webcast('2026-11-20T14:00:00+01:00', '2026-11-20T15:00:00+01:00', 0);
    const post = (room: string) => t.anonymous().post(`/api/publicaccess/${room}`, { displayName: 'Sara' });
    expect((await post(tomorrow.roomId)).json()).toMatchObject(roomError('startTime', 'Mötet är inte idag'));
    expect((await post(ended.roomId)).json()).toMatchObject(roomError('endTime', 'Mötet har redan varit'));
    expect((await post(meeting.roomId)).json()).toMatchObject(roomError('roomId', 'Länken fungerar inte'));
    expect((await post('AAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
  });

  it('needs the anti-forgery header like every mutating call', async () => {
    const w = await today();
    const res = await t.anonymous().request({ method: 'POST', url: `/api/publicaccess/${w.roomId}`, headers: { 'x-xsrf-token': '' }, payload: { data: { displayName: 'Sara' } } });
    expect(res.statusCode).toBe(403);
  });

  it("ends the browser's earlier session: public access is anonymous by design", async () => {
    const w = await today();
    const erik = await t.as('erik');
    const res = await erik.post(`/api/publicaccess/${w.roomId}`, { displayName: 'Erik' });
    expect(res.statusCode).toBe(200);
    expect((await erik.get('/api/login/getuserdata')).statusCode).toBe(401);
  });
});

// What the visitor's own webcast needs: the start-up calls, its own session, this module's public-access calls, and the
// conference's token, room lookup, public system messages, call rating and call error reports
// (meeting-errors.api.test.ts: a visitor reports for its own webcast only).
const VISITOR_ROUTES = new Set([
  'GET /api/getantiforgerydata',
  'GET /api/login/getuserdata',
  'GET /api/login/keepalive',
  'POST /api/login/logout',
  'GET /api/meeting/getidbyroomid/:roomId',
  'POST /api/publicaccess/:roomId',
  'POST /api/meeting/gettoken',
  'GET /api/meeting/getmeetingbyroomid/:roomId',
  'GET /api/message',
  'POST /api/meetingpoll',
  'POST /api/meetingerror',
]);

describe('the anonymous visitor outside its webcast', () => {
  // Every other route must either refuse the visitor outright, or be a public route that answers the visitor
  // exactly as it answers a browser with no session at all: the visitor's session then grants nothing there.
  // Routes are read from the running app, so routes added later are covered without touching this test.
  it('gets nothing from any other API route, listed from the running app', async () => {
    const w = await today();
    const visitor = await enter(w.roomId);
    const routes = listRoutes(t.app).filter(([method, path]) => path.startsWith('/api/') && method !== 'HEAD' && !VISITOR_ROUTES.has(`${method} ${path}`));
    expect(routes.length).toBeGreaterThanOrEqual(3); // lobby, validateexternaluser, addexternaluser at least
    const leaks: string[] = [];
    let refused = 0;
    for (const [method, path] of routes) {
      const url = path.replace(/:[A-Za-z]+/g, w.id).replace(/\*/g, 'x');
      const options = { method: method as 'GET', url, payload: method === 'GET' || method === 'DELETE' ? undefined : { data: {} } };
      const res = await visitor.request(options);
      if (res.statusCode === 403 && res.json().message === 'Inte tillåtet för besökare') {
        refused++;
        continue;
      }
      const nobody = await t.anonymous().request(options);
      if (nobody.statusCode !== res.statusCode) leaks.push(`${method} ${path}: visitor ${res.statusCode}, no session ${nobody.statusCode}`);
    }
    expect(leaks).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(3);
  });
});
