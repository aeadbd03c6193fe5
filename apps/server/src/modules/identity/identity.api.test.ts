import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/use-test-app.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';

const t = useTestApp('2026-11-20T09:00:00+01:00');

describe('getuserdata', () => {
  it.each([
    ['anna', ['VIDMedarbetare', 'VIDAdmin'], ['EditMeeting', 'InternalMeeting', 'ScreenShare'], 'Intern', true],
    ['erik', ['VIDMedarbetare'], ['EditMeeting', 'InternalMeeting', 'ScreenShare'], 'Intern', false],
    ['karin', ['KompletterandeAktör'], ['EditMeeting', 'ScreenShare'], 'KA', false],
    ['fredrik', ['FriståendeAktör'], ['EditMeeting', 'ScreenShare'], 'MSFA', false],
    ['jonna', ['Participant'], ['ScreenShare'], 'None', false],
  ] as const)('maps %s roles to features and user level', async (persona, roles, features, level, isAdmin) => {
    const client = await t.as(persona);
    const res = await client.get('/api/login/getuserdata');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.afRole).toEqual(roles);
    expect(data.features).toEqual(features);
    expect(data.userLevel).toBe(level);
    expect(data.isAdmin).toBe(isAdmin);
    expect(JSON.stringify(data)).not.toMatch(/\d{12}/); // never the personnummer
  });

  it('answers 401 without a session, with a tampered cookie and after expiry', async () => {
    expect((await t.anonymous().get('/api/login/getuserdata')).statusCode).toBe(401);
    const client = await t.as('erik');
    const tampered = await client.request({ method: 'GET', url: '/api/login/getuserdata', cookies: { [SESSION_COOKIE]: client.cookies[SESSION_COOKIE]!.slice(0, -2) + 'xx' } });
    expect(tampered.statusCode).toBe(401);
    t.clock.advance(61 * 60_000);
    const expired = await client.get('/api/login/getuserdata');
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ name: 'Unauthorized', message: expect.any(String) });
  });

  it('with optional=true answers nobody as 200 { data: null } (the web start-up probe), somebody as usual', async () => {
    const nobody = await t.anonymous().get('/api/login/getuserdata?optional=true');
    expect(nobody.statusCode).toBe(200);
    expect(nobody.json()).toEqual({ data: null });
    const client = await t.as('jonna');
    const jonna = await client.get('/api/login/getuserdata?optional=true');
    expect(jonna.statusCode).toBe(200);
    expect(jonna.json().data).toMatchObject({ ciamGivenName: 'Jonna', features: ['ScreenShare'] });
    t.clock.advance(61 * 60_000);
    expect((await client.get('/api/login/getuserdata?optional=true')).json()).toEqual({ data: null });
    expect((await t.anonymous().get('/api/login/getuserdata?optional=maybe')).statusCode).toBe(400);
  });

  it('slides the session on each API call and stamps APILastCall', async () => {
    const client = await t.as('erik');
    t.clock.advance(50 * 60_000);
    const res = await client.get('/api/login/keepalive');
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'APILastCall')?.value).toBe(String(t.clock.now().getTime()));
    t.clock.advance(50 * 60_000);
    expect((await client.get('/api/login/getuserdata')).statusCode).toBe(200);
  });

  it('logout ends the session', async () => {
    const client = await t.as('jonna');
    const res = await client.post('/api/login/logout', null);
    expect(res.json()).toEqual({ data: 'local' });
    expect((await client.get('/api/login/getuserdata')).statusCode).toBe(401);
  });

  it('ends a session SESSION_MAX_HOURS (12) after login however often the keep-alive slides it', async () => {
    expect(t.app.deps.config.sessionMaxHours).toBe(12);
    const client = await t.as('erik');
    const login = t.clock.now().getTime();
    // A keep-alive every 20 minutes for almost 12 hours: the session stays, its expiry never passes login + 12 h.
    for (let step = 1; step * 20 * 60_000 < 12 * 3_600_000; step++) {
      t.clock.set(new Date(login + step * 20 * 60_000));
      const res = await client.get('/api/login/keepalive');
      expect(res.statusCode, `after ${step * 20} minutes`).toBe(200);
      expect(new Date(res.json().data.expiresAt).getTime()).toBeLessThanOrEqual(login + 12 * 3_600_000);
    }
    // In the last hour the expiry is the absolute end, and APILastCall counts down to it (the web warns in time).
    t.clock.set(new Date(login + 11.5 * 3_600_000));
    const late = await client.get('/api/login/keepalive');
    expect(late.json().data.expiresAt).toBe(new Date(login + 12 * 3_600_000).toISOString());
    const lastCall = Number(late.cookies.find((c) => c.name === 'APILastCall')?.value);
    expect(login + 12 * 3_600_000 - lastCall).toBe(60 * 60_000);
    t.clock.set(new Date(login + 12 * 3_600_000));
    expect((await client.get('/api/login/keepalive')).statusCode).toBe(401);
    expect((await client.get('/api/login/getuserdata')).statusCode).toBe(401);
  });

  it('a session ended by another server (its row gone) stops working here within SESSION_CACHE_SECONDS', async () => {
    const client = await t.as('erik');
    expect((await client.get('/api/login/getuserdata')).statusCode).toBe(200);
    await t.db.query('DELETE FROM sessions');
    // Read a moment ago, so this node still knows it: the price of not asking the database on every call.
    expect((await client.get('/api/login/getuserdata')).statusCode).toBe(200);
    t.clock.advance(t.app.deps.config.sessionCacheSeconds * 1000);
    expect((await client.get('/api/login/getuserdata')).statusCode).toBe(401);
  });
});

describe('anti-forgery', () => {
  it('sets XSRF-TOKEN and refuses a mutating request without the echoed header', async () => {
    const res = await t.anonymous().get('/api/getantiforgerydata');
    expect(res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value).toBeTruthy();
    const client = await t.as('erik');
    const noHeader = await client.request({ method: 'POST', url: '/api/anything', headers: { 'x-xsrf-token': '' }, payload: { data: {} } });
    expect(noHeader.statusCode).toBe(403);
    const wrong = await client.request({ method: 'POST', url: '/api/anything', headers: { 'x-xsrf-token': 'nope' }, payload: { data: {} } });
    expect(wrong.statusCode).toBe(403);
  });

  it('is decided on the matched route: a percent-encoded path to an API route is checked like the plain one', async () => {
    const client = await t.as('erik');
    for (const url of ['/api/meeting', '/%61pi/meeting', '/%61%70%69/meeting', '/api/%6Deeting']) {
      const res = await client.request({ method: 'POST', url, headers: { 'x-xsrf-token': '' }, payload: { data: {} } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message, url).toBe('Ogiltig förfrågan (anti-forgery)');
    }
  });
});

describe('anonymous-visitor guard', () => {
  it('is decided on the matched route: an encoded path does not let a webcast visitor past it', async () => {
    const visitor = await t.as({ ...(await t.as('jonna')).user!, kind: 'anonymous', meetingId: crypto.randomUUID() });
    for (const url of ['/api/meeting', '/%61pi/meeting']) {
      const res = await visitor.post(url, {});
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message, url).toBe('Inte tillåtet för besökare');
    }
  });
});
