import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildTestApp, testClock, type TestApp } from '../../testing/test-app.ts';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { bookedCall, tokenFor } from '../../testing/media-call.ts';
import { verifyMediaToken } from './media-token.ts';

// No Janus here (API suite, no network namespace): JANUS_URL points at a closed port, so tokens are issued but
// rooms are not created. The relay with a real Janus is tested in e2e/media-relay.spec.ts.
const t = useTestApp('2026-11-20T09:00:00+01:00', { env: { JANUS_URL: 'ws://127.0.0.1:9' }, listen: true });

const meeting = (type: 0 | 1 = 0) => bookedCall(t, type);

const visitor = (meetingId: string, firstName = 'Besökare Ett') => anonymousSessionUser({ subject: `visitor-${meetingId}-${firstName}`, firstName, meetingId });

function openMedia(meetingId: string, cookies: Record<string, string>, token?: string, query = ''): Promise<{ status: number } | { open: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://${t.host}/media/${meetingId}${token ? `?token=${encodeURIComponent(token)}${query}` : ''}`, 'janus-protocol', {
      headers: { cookie: Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('open', () => resolve({ open: ws }));
    ws.on('error', () => {});
  });
}

describe('POST /api/meeting/gettoken', () => {
  it('gives a participant a token, the meeting and its invited list without personal identity numbers', async () => {
    const m = await meeting();
    const res = await tokenFor(await t.as('jonna'), m.id, 'Someone Else');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.tokenData).toMatchObject({ token: expect.any(String), apiKey: 'janus', sessionId: expect.any(String) });
    expect(data.meeting).toMatchObject({ type: 0, id: m.id, roomId: m.roomId });
    expect(data.meeting.participants).toEqual([
      { id: m.participantIds[0], displayName: 'Erik Handläggare', role: 'EmploymentOfficer', moderator: true, currentUser: false },
      { id: m.participantIds[1], displayName: 'Jonna S', role: 'JobSeeker', moderator: false, currentUser: true },
    ]);
    // Every group shares a screen by default (Grupper may withdraw it), and whoever shares may take a share over.
    expect(data.capabilities).toEqual({ publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false, screenShare: true });
    // A personnummer as text (12 digits standing alone, or the seeded birth date): not any 12-digit run, which random
    // base64 or base64url (its - and _ too) in the token, media key or TURN password holds now and then.
    expect(res.body).not.toMatch(/(?<![A-Za-z0-9+/_-])\d{12}(?![A-Za-z0-9+/_-])|19900101/);
  });

  it('needs the lobby\'s consent, given before or with the request (consent: true records it); a stranger\'s records nothing', async () => {
    const m = await meeting();
    const jonna = await t.as('jonna');
    const refused = await jonna.post('/api/meeting/gettoken', { meetingId: m.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].fields).toEqual(['consent']);
    const given = await jonna.post('/api/meeting/gettoken', { meetingId: m.id, consent: true });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json().data.tokenData.token).toEqual(expect.any(String));
    // Recorded: the meeting screen opened again later (a reload) gets its token without it.
    expect((await jonna.post('/api/meeting/gettoken', { meetingId: m.id })).statusCode).toBe(200);
    expect((await (await t.as('karin')).post('/api/meeting/gettoken', { meetingId: m.id, consent: true })).statusCode).toBe(403);
    const rows = await t.db.query<{ meeting_id: string }>('SELECT meeting_id FROM lobby_consents WHERE meeting_id = $1', [m.id]);
    expect(rows).toHaveLength(1);
    expect((await jonna.post('/api/meeting/gettoken', { meetingId: m.id, consent: false })).statusCode).toBe(400);
  });

  it('refuses a stranger (403), an unknown meeting (404) and no session (401)', async () => {
    const m = await meeting();
    expect((await (await t.as('karin')).post('/api/meeting/gettoken', { meetingId: m.id, displayName: 'K' })).statusCode).toBe(403);
    expect((await (await t.as('karin')).post('/api/meeting/gettoken', { meetingId: '6f1c8a52-7d0e-4c1e-9a55-3b1f2f1e0a11', displayName: 'K' })).statusCode).toBe(404);
    expect((await t.anonymous().post('/api/meeting/gettoken', { meetingId: m.id, displayName: 'K' })).statusCode).toBe(401);
    const bad = await (await t.as('jonna')).post('/api/meeting/gettoken', { displayName: 'K' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ name: 'ValidationError', errors: [{ fields: ['meetingId'] }] });
  });

  it('admits a webcast visitor under the name checked at the entrance, subscribe-only, and shows only the presenters', async () => {
    const m = await meeting(1);
    // A session without a checked name (none is made so) gets no media name.
    const noName = await (await t.as(visitor(m.id, ''))).post('/api/meeting/gettoken', { meetingId: m.id, displayName: 'Vem som helst' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().errors[0]).toEqual({ fields: ['displayName'], message: 'Fältet är ej korrekt ifyllt' });
    const client = await t.as(visitor(m.id));
    // SECURITY: the name the media server shows is the session's, whatever the browser asks for.
    const res = await client.post('/api/meeting/gettoken', { meetingId: m.id, displayName: 'Anna Admin (moderator) och en mycket längre text' });
    expect(res.statusCode).toBe(200);
    expect(verifyMediaToken(t.app.deps.pins, res.json().data.tokenData.token, t.clock.now())?.n).toBe('Besökare Ett');
    expect(res.json().data.capabilities).toEqual({ publish: false, subscribe: true, forceUnpublish: false, forceDisconnect: false, screenShare: false });
    expect(res.json().data.meeting.participants.map((p: { displayName: string }) => p.displayName)).toEqual(['Erik Handläggare']);
    // A visitor's session is scoped to its own webcast.
    const other = await meeting(1);
    expect((await client.post('/api/meeting/gettoken', { meetingId: other.id, displayName: 'B' })).statusCode).toBe(403);
  });

  it('gives a webcast presenter the publish capability and a booked job seeker none', async () => {
    const m = await meeting(1);
    const erik = (await tokenFor(await t.as('erik'), m.id)).json().data;
    expect(erik.capabilities).toEqual({ publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: true, screenShare: true });
    const jonna = (await tokenFor(await t.as('jonna'), m.id)).json().data;
    expect(jonna.capabilities.publish).toBe(false);
  });
});

describe('GET /api/meeting/getmeetingbyroomid', () => {
  it('tells anyone a webcast, only members a meeting', async () => {
    const w = await meeting(1);
    const res = await t.anonymous().get(`/api/meeting/getmeetingbyroomid/${w.roomId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: w.id, type: 1, roomId: w.roomId, title: 'Testmöte' });
    const m = await meeting(0);
    expect((await t.anonymous().get(`/api/meeting/getmeetingbyroomid/${m.roomId}`)).statusCode).toBe(404);
    expect((await (await t.as('karin')).get(`/api/meeting/getmeetingbyroomid/${m.roomId}`)).statusCode).toBe(404);
    expect((await (await t.as('erik')).get(`/api/meeting/getmeetingbyroomid/${m.roomId}`)).statusCode).toBe(200);
    expect((await t.anonymous().get('/api/meeting/getmeetingbyroomid/nope')).statusCode).toBe(404);
  });
});

describe('/media/{meetingId}', () => {
  it('gives a stranger, a missing token and another user\'s token no socket', async () => {
    const m = await meeting();
    const jonna = await t.as('jonna');
    const token = (await tokenFor(jonna, m.id)).json().data.tokenData.token as string;
    const karin = await t.as('karin');
    expect(await openMedia(m.id, {}, token)).toEqual({ status: 403 });
    expect(await openMedia(m.id, karin.cookies, token)).toEqual({ status: 403 });
    expect(await openMedia(m.id, { [SESSION_COOKIE]: jonna.cookies[SESSION_COOKIE]! })).toEqual({ status: 403 });
    const other = await meeting();
    expect(await openMedia(other.id, { [SESSION_COOKIE]: jonna.cookies[SESSION_COOKIE]! }, token)).toEqual({ status: 403 });
  });

  it('lets only a booked participant\'s browser without encoded transforms (e2ee=0) in; a webcast visitor\'s is refused before any socket', async () => {
    const m = await meeting(1);
    const visitorClient = await t.as(visitor(m.id));
    const visitorToken = (await visitorClient.post('/api/meeting/gettoken', { meetingId: m.id })).json().data.tokenData.token as string;
    expect(await openMedia(m.id, visitorClient.cookies, visitorToken, '&e2ee=0')).toEqual({ status: 403 });
    // The visitor's browser that encrypts is let in as before.
    const encrypting = await openMedia(m.id, visitorClient.cookies, visitorToken);
    expect('open' in encrypting).toBe(true);
    if ('open' in encrypting) encrypting.open.terminate();
    // The refusal says why, in the spec's error shape.
    const refusal = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://${t.host}/media/${m.id}?token=${encodeURIComponent(visitorToken)}&e2ee=0`, { headers: { cookie: `${SESSION_COOKIE}=${visitorClient.cookies[SESSION_COOKIE]}` } });
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(body));
      });
      ws.on('error', () => {});
    });
    expect(JSON.parse(refusal)).toEqual({ name: 'Forbidden', statusCode: 403, message: 'Din webbläsare kan inte kryptera bild och ljud hela vägen. Använd en aktuell version av Chrome, Edge, Firefox eller Safari.' });
    // A booked presenter's browser without them takes part (the meeting then goes transit-only, and every screen says so).
    const erik = await t.as('erik');
    const erikToken = (await tokenFor(erik, m.id)).json().data.tokenData.token as string;
    const presenter = await openMedia(m.id, erik.cookies, erikToken, '&e2ee=0');
    expect('open' in presenter).toBe(true);
    if ('open' in presenter) presenter.open.terminate();
  });
});

describe('/media upgrade rate limit', () => {
  it('lets one session open 30 sockets a minute, then is refused with 429', async () => {
    const m = await meeting();
    const jonna = await t.as('jonna');
    const token = (await tokenFor(jonna, m.id)).json().data.tokenData.token as string;
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const r = await openMedia(m.id, jonna.cookies, token);
      if ('open' in r) {
        statuses.push(101);
        r.open.terminate();
      } else statuses.push(r.status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(101));
    expect(statuses[30]).toBe(429);
    // Another person's session has its own budget.
    const erik = await t.as('erik');
    const erikToken = (await tokenFor(erik, m.id)).json().data.tokenData.token as string;
    const other = await openMedia(m.id, erik.cookies, erikToken);
    expect('open' in other).toBe(true);
    if ('open' in other) other.open.terminate();
  });
});

describe('without a working Janus', () => {
  let broken: TestApp;
  // Built in a hook (longer timeout than a test): a second app on a loaded machine takes a while.
  beforeAll(async () => {
    process.env.JANUS_BIN = '/nonexistent/janus';
    broken = await buildTestApp({ clock: testClock('2026-11-20T09:00:00+01:00') });
    await broken.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    delete process.env.JANUS_BIN;
    await broken?.close();
  });

  it('still issues tokens and serves the meeting pages; the media socket closes with "media server unavailable"', async () => {
    const m = await insertMeeting(broken.db, broken.app.deps.pins, {
      start: '2026-11-20T09:00:00+01:00',
      end: '2026-11-20T10:00:00+01:00',
      participants: [{ persona: 'erik', role: 'EmploymentOfficer' }],
    });
    // Janus starts on the first media use: until then the server is ready without it.
    const readyz = async () => broken.app.internal.inject('/readyz');
    expect([(await readyz()).statusCode, (await readyz()).json().checks]).toEqual([200, { database: true, janus: true }]);
    const erik = await broken.as('erik');
    const res = await tokenFor(erik, m.id);
    expect(res.statusCode).toBe(200);
    // Asked for and not running: not ready, and it says which dependency.
    expect([(await readyz()).statusCode, (await readyz()).json().checks]).toEqual([503, { database: true, janus: false }]);
    expect(res.json().data.tokenData.sessionId).toBe('');
    expect((await erik.get('/api/login/getuserdata')).statusCode).toBe(200);
    const port = (broken.app.server.address() as { port: number }).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/media/${m.id}?token=${encodeURIComponent(res.json().data.tokenData.token)}`, 'janus-protocol', {
      headers: { cookie: Object.entries(erik.cookies).map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    const code = await new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    expect(code).toBe(4003);
    // Felsökning learns what went wrong with this meeting's media (recorded beside the request, so wait for it).
    const codes = async () => (await broken.db.query<{ code: string }>('SELECT code FROM meeting_errors WHERE meeting_id = $1 AND source = $2 ORDER BY id', [m.id, 'media'])).map((r) => r.code);
    for (let i = 0; i < 50 && !(await codes()).includes('connect-failed'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await codes()).toEqual(expect.arrayContaining(['room-not-ready', 'connect-failed']));
    const shown = (await (await broken.as('anna')).get(`/api/admin/troubleshoot?q=${m.id}`)).json().data.recentErrors;
    expect(shown.items.map((e: { source: string }) => e.source)).toContain('media');
  });
});
