import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testClock, type TestApp, type TestClient } from '../apps/server/src/testing/test-app.ts';
import { insertMeeting } from '../apps/server/src/testing/fixtures.ts';
import { SESSION_COOKIE } from '../apps/server/src/platform/session.ts';
import { anonymousSessionUser } from '../apps/server/src/modules/identity/session-user.ts';
import { MEDIA_SOCKETS_FULL_CLOSE_CODE } from '@videomote/contract/media';
import { sv } from '../apps/web/src/i18n/catalogues/sv.ts';
import { tokenFor } from '../apps/server/src/testing/media-call.ts';
import { listeningTestApp } from './support/listening-app.ts';
import { screenshot } from './support/screenshots.ts';
import { RawMediaClient } from './support/media.ts';
import { launchBrowser, newUserPage } from './support/browser.ts';

// What one person, one session and one client address may hold of the media servers at once, across meetings:
// `/media` sockets (closed at once with a code of their own, which a page shows as a Swedish text), Janus handles and PeerConnections (refused by the relay). Against
// the real embedded Janus, inside the test network namespace; every client here comes from 127.0.0.1, so the
// address caps count them all. Small caps through the environment, as an operator sets them.
const CAPS = {
  MEDIA_MAX_SOCKETS_PER_SESSION: 2,
  MEDIA_MAX_SOCKETS_PER_PERSON: 3,
  MEDIA_MAX_SOCKETS_PER_ADDRESS: 6,
  MEDIA_MAX_HANDLES_PER_SESSION: 4,
  MEDIA_MAX_HANDLES_PER_PERSON: 6,
  MEDIA_MAX_HANDLES_PER_ADDRESS: 10,
  MEDIA_MAX_PEER_CONNECTIONS_PER_SESSION: 2,
  MEDIA_MAX_PEER_CONNECTIONS_PER_PERSON: 3,
  MEDIA_MAX_PEER_CONNECTIONS_PER_ADDRESS: 5,
};

let t: TestApp;
let base: string;

beforeAll(async () => {
  ({ t, base } = await listeningTestApp(testClock(new Date()), Object.fromEntries(Object.entries(CAPS).map(([k, v]) => [k, String(v)]))));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const meeting = (participants: Parameters<typeof insertMeeting>[2]['participants'], type: 0 | 1 = 0) =>
  insertMeeting(t.db, t.app.deps.pins, { type, start: new Date(Date.now() - 60_000), end: new Date(Date.now() + 3600_000), participants });
const own = (persona: 'erik' | 'karin' | 'fredrik') => meeting([{ persona, role: persona === 'erik' ? 'EmploymentOfficer' : 'PrivateContractor', isAdmin: true }]);

/** A `/media` socket of the client in the meeting, or its refusal (the close code and reason the server closed it with). */
async function open(client: TestClient, meetingId: string): Promise<RawMediaClient | { code: number; reason: string }> {
  const res = await tokenFor(client, meetingId);
  expect(res.statusCode, res.body).toBe(200);
  const url = `${base.replace('http', 'ws')}/media/${meetingId}?token=${encodeURIComponent(res.json().data.tokenData.token as string)}`;
  const cookie = `${SESSION_COOKIE}=${client.cookies[SESSION_COOKIE]}`;
  // A refused socket is upgraded and closed at once with a code of its own (a browser cannot read a refused
  // handshake); an admitted one hears 'connected' from the server.
  const refused = await new Promise<{ code: number; reason: string } | null>((resolve, reject) => {
    const probe = new WebSocket(url, 'janus-protocol', { headers: { cookie } });
    probe.once('message', () => {
      probe.close();
      resolve(null);
    });
    probe.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    probe.once('unexpected-response', (_q, r) => reject(new Error(`HTTP ${r.statusCode} at the upgrade`)));
    probe.once('error', () => {});
  });
  if (refused) return refused;
  // The probe's socket is given back once closed: wait for that, then open the one that stays.
  await new Promise((r) => setTimeout(r, 200));
  const raw = await RawMediaClient.open(url, cookie);
  await raw.waitFor((m) => m.videomote === 'connected');
  return raw;
}

const socketOf = (r: Awaited<ReturnType<typeof open>>): RawMediaClient => {
  if (!(r instanceof RawMediaClient)) throw new Error(`refused: ${JSON.stringify(r)}`);
  return r;
};
const refusedBy = { code: MEDIA_SOCKETS_FULL_CLOSE_CODE, reason: 'too many media sockets' };
const reason = (m: Record<string, unknown>) => String((m.error as { reason?: string } | undefined)?.reason ?? '');

async function closeAll(sockets: RawMediaClient[]): Promise<void> {
  for (const s of sockets) s.close();
  await Promise.all(sockets.map((s) => s.closed()));
  // Given back on close: wait until the address has room again.
  await new Promise((r) => setTimeout(r, 300));
}

/** A Janus session on the socket and `n` VideoRoom handles in it; answers the handle ids and the refusals after them. */
async function attach(raw: RawMediaClient, n: number): Promise<{ session: number; handles: number[]; refusals: string[] }> {
  const session = ((await raw.request({ janus: 'create' })).data as { id: number }).id;
  const handles: number[] = [];
  const refusals: string[] = [];
  for (let i = 0; i < n; i++) {
    const answer = await raw.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' });
    if (answer.janus === 'success') handles.push((answer.data as { id: number }).id);
    else refusals.push(reason(answer));
  }
  return { session, handles, refusals };
}

describe('what one person, session and address may hold of the media servers', () => {
  it('refuses a /media socket past the session\'s, the person\'s (across meetings) and the address\'s cap, with a close code of its own', async () => {
    const [m1, m2] = [await own('erik'), await own('erik')];
    const erikA = await t.as('erik');
    const held = [socketOf(await open(erikA, m1.id)), socketOf(await open(erikA, m1.id))];
    expect(await open(erikA, m2.id)).toEqual(refusedBy); // the session's 2, in another meeting too
    const erikB = await t.as('erik');
    held.push(socketOf(await open(erikB, m2.id)));
    expect(await open(erikB, m2.id)).toEqual(refusedBy); // Erik's 3 across both meetings, from his second session
    await closeAll(held);

    // Visitor sessions of one webcast: each is a person and a session of its own, all from one address.
    const w = await meeting([{ persona: 'erik', role: 'PresenterInternal', isAdmin: true }], 1);
    const visitors = await Promise.all([1, 2, 3, 4].map((i) => t.as(anonymousSessionUser({ subject: `holds-visitor-${i}-${w.id}`, firstName: `Besökare ${i}`, meetingId: w.id }))));
    const seats: RawMediaClient[] = [];
    for (const v of visitors.slice(0, 3)) for (let i = 0; i < 2; i++) seats.push(socketOf(await open(v, w.id)));
    expect(await open(visitors[3]!, w.id)).toEqual(refusedBy); // the address's 6
    await closeAll(seats.splice(0, 1));
    seats.push(socketOf(await open(visitors[3]!, w.id))); // one closed: a place again
    await closeAll(seats);
  }, 120_000);

  it('refuses a Janus handle past the session\'s, the person\'s (across meetings) and the address\'s cap, bare handles included', async () => {
    const [m1, m2, m3, m4] = [await own('erik'), await own('erik'), await own('karin'), await own('fredrik')];
    const erikA = socketOf(await open(await t.as('erik'), m1.id));
    const a = await attach(erikA, 5);
    expect([a.handles.length, a.refusals]).toEqual([4, ['Refused by Videomöte: too many handles for one session']]);
    const erikB = socketOf(await open(await t.as('erik'), m2.id));
    const b = await attach(erikB, 3);
    expect([b.handles.length, b.refusals]).toEqual([2, ['Refused by Videomöte: too many handles for one person']]);
    const karin = socketOf(await open(await t.as('karin'), m3.id));
    expect((await attach(karin, 3)).handles).toHaveLength(3);
    const fredrik = socketOf(await open(await t.as('fredrik'), m4.id));
    const f = await attach(fredrik, 2);
    expect([f.handles.length, f.refusals]).toEqual([1, ['Refused by Videomöte: too many handles for one client address']]);
    await closeAll([erikA, erikB, karin, fredrik]);
  }, 120_000);

  it('refuses a PeerConnection (a joined handle) past the session\'s, the person\'s (across meetings) and the address\'s cap', async () => {
    const [m1, m2, m3, m4] = [await own('erik'), await own('erik'), await own('karin'), await own('fredrik')];
    /** Publisher joins (each one PeerConnection on Janus once it publishes) on `n` fresh handles of the socket. */
    const joins = async (raw: RawMediaClient, n: number) => {
      const roomId = ((await raw.waitFor((m) => m.videomote === 'connected')) as { roomId: number }).roomId;
      const { session, handles } = await attach(raw, n);
      const out: string[] = [];
      for (const handle of handles) {
        const answer = await raw.request({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'publisher', room: roomId } }, true);
        out.push(answer.janus === 'error' ? reason(answer) : 'joined');
      }
      return out;
    };
    const erikA = socketOf(await open(await t.as('erik'), m1.id));
    expect(await joins(erikA, 3)).toEqual(['joined', 'joined', 'Refused by Videomöte: too many peer connections for one session']);
    const erikB = socketOf(await open(await t.as('erik'), m2.id));
    expect(await joins(erikB, 2)).toEqual(['joined', 'Refused by Videomöte: too many peer connections for one person']);
    const karin = socketOf(await open(await t.as('karin'), m3.id));
    expect(await joins(karin, 1)).toEqual(['joined']);
    const fredrik = socketOf(await open(await t.as('fredrik'), m4.id));
    expect(await joins(fredrik, 2)).toEqual(['joined', 'Refused by Videomöte: too many peer connections for one client address']);
    await closeAll([erikA, erikB, karin, fredrik]);
  }, 120_000);

  it('tells a page refused by the cap why, in Swedish, while it keeps retrying; the text goes once a socket is admitted', async () => {
    const m = await own('fredrik');
    const [a, b] = [await t.as('fredrik'), await t.as('fredrik')];
    const held = [socketOf(await open(a, m.id)), socketOf(await open(a, m.id)), socketOf(await open(b, m.id))]; // Fredrik's 3
    // His browser, in a session of its own (its cookies from the same login as the raw clients'), past the lobby.
    const c = await t.as('fredrik');
    expect((await c.post(`/api/lobby/${m.id}/consent`, {})).statusCode).toBe(200);
    const browser = await launchBrowser();
    try {
      const { context, page } = await newUserPage(browser, base);
      await context.addCookies(Object.entries(c.cookies).map(([name, value]) => ({ name, value, url: base })));
      let sockets = 0;
      page.on('websocket', (ws) => {
        if (new URL(ws.url()).pathname.startsWith('/media/')) sockets += 1;
      });
      const status = () => page.locator('.conference').getAttribute('data-connection-status', { timeout: 1_000 }).catch(() => 'absent');
      await page.goto(`/meetings/${m.id}/conference?vmtest=1`, { timeout: 90_000 });
      const text = page.getByRole('alert').filter({ hasText: sv.conference.errors.MEDIA_SOCKETS_FULL });
      await expect.poll(() => text.count(), { timeout: 30_000 }).toBe(1);
      // It tries again and again (after 0.5, 1, 2, 4 s, ...), refused each time, and the text stays.
      await expect.poll(() => sockets, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
      expect(await status()).not.toBe('connected');
      expect(await text.count()).toBe(1);
      await screenshot(page, 'media-sockets-full');
      // One of his other sockets closes: the next try is admitted, and the text goes.
      await closeAll(held.splice(0, 1));
      await expect.poll(() => status(), { timeout: 30_000 }).toBe('connected');
      expect(await text.count()).toBe(0);
    } finally {
      await browser.close();
      await closeAll(held);
    }
  }, 120_000);
});
