import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../testing/test-app.ts';
import { insertMeeting } from '../testing/fixtures.ts';

/**
 * The rate limits key a browser without session by its address. With every proxy trusted (the old `trustProxy:
 * true`), a client could send its own X-Forwarded-For and get a fresh budget on every request. Only a proxy on
 * loopback is believed now (TRUST_PROXY), so a client elsewhere keeps its one address whatever it claims.
 */
let t: TestApp;
let roomId = '';
beforeAll(async () => {
  t = await buildTestApp({ clock: testClock('2026-11-20T09:00:00+01:00') });
  roomId = (
    await insertMeeting(t.db, t.app.deps.pins, {
      type: 1,
      start: '2026-11-20T08:00:00+01:00',
      end: '2026-11-20T12:00:00+01:00',
      participants: [{ persona: 'erik', role: 'PresenterInternal', isAdmin: true }],
    })
  ).roomId;
}, 120_000);
afterAll(async () => t?.close());

const enter = (remoteAddress: string, forwardedFor: string) =>
  t.anonymous().request({
    method: 'POST',
    url: `/api/publicaccess/${roomId}`,
    payload: { data: { displayName: 'Sara' } },
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
  });

describe('rate limits and X-Forwarded-For', () => {
  it('a client not on loopback cannot escape the public-access limit (30 a minute) by claiming other addresses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await enter('203.0.113.7', `198.51.100.${i}`)).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    const refused = await enter('203.0.113.7', '198.51.100.200');
    expect(refused.json()).toMatchObject({ name: 'TooManyRequests', message: 'För många förfrågningar, försök igen om en stund' });
    // Another real client is not affected.
    expect((await enter('203.0.113.8', '198.51.100.1')).statusCode).toBe(200);
  });

  it('a proxy on loopback is believed: the address it forwards is the one limited', async () => {
    expect((await enter('127.0.0.1', '192.0.2.10')).statusCode).toBe(200);
    // A client that spoofs a first hop through the proxy is still keyed by the address the proxy saw.
    for (let i = 0; i < 29; i++) expect((await enter('127.0.0.1', `10.0.0.${i}, 192.0.2.10`)).statusCode).toBe(200);
    expect((await enter('127.0.0.1', '10.9.9.9, 192.0.2.10')).statusCode).toBe(429);
  });
});

describe('rate limits and made-up session cookies', () => {
  // POST /api/meetingpoll is limited to 120 a minute like every write; refused answers still count.
  const write = (remoteAddress: string, cookie: string) =>
    t.anonymous().request({ method: 'POST', url: '/api/meetingpoll', payload: { data: {} }, remoteAddress, cookies: { vm_session: cookie } });

  it('random cookie values share the bucket of their address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await write('203.0.113.20', `made-up-cookie-value-${i}-${crypto.randomUUID()}`)).statusCode);
    expect(statuses.slice(0, 120).every((s) => s !== 429)).toBe(true);
    expect(statuses[120]).toBe(429);
    // A cookie-less request from the same address is in the same, spent bucket; another address is not.
    expect((await t.anonymous().request({ method: 'POST', url: '/api/meetingpoll', payload: { data: {} }, remoteAddress: '203.0.113.20' })).statusCode).toBe(429);
    expect((await write('203.0.113.21', 'another-made-up-value-xxxxxxxx')).statusCode).not.toBe(429);
  });

  it('a new session does not bring a new public-access budget: entering again with it still counts on the address', async () => {
    let cookie: string | undefined;
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await t.anonymous().request({
        method: 'POST',
        url: `/api/publicaccess/${roomId}`,
        payload: { data: { displayName: 'Sara' } },
        remoteAddress: '203.0.113.30',
        cookies: cookie ? { vm_session: cookie } : {},
      });
      statuses.push(res.statusCode);
      cookie = res.cookies.find((c) => c.name === 'vm_session')?.value ?? cookie;
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('a real session keeps a bucket of its own', async () => {
    const erik = await t.as('erik');
    const res = await erik.request({ method: 'POST', url: '/api/meetingpoll', payload: { data: {} }, remoteAddress: '203.0.113.20' });
    expect(res.statusCode).not.toBe(429);
  });
});
