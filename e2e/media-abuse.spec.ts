import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { testClock, type TestApp, type TestClient } from '../apps/server/src/testing/test-app.ts';
import { insertMeeting } from '../apps/server/src/testing/fixtures.ts';
import { SESSION_COOKIE } from '../apps/server/src/platform/session.ts';
import { MAX_HANDLES_PER_SESSION, MAX_SESSIONS } from '../apps/server/src/modules/media/janus/relay-policy.ts';
import { DEFAULT_MEDIA_LIMITS } from '../apps/server/src/platform/media-capacity.ts';
import { launchBrowser, newUserPage } from './support/browser.ts';
import { listeningTestApp } from './support/listening-app.ts';
import { tokenFor } from '../apps/server/src/testing/media-call.ts';
import { RawMediaClient } from './support/media.ts';

// What one user can take from the media server, against the real embedded Janus (inside the test network namespace).
// Janus gets a range of 60 RTP ports here: one participant allowed every PeerConnection they ask for would take
// them all and stop media for every other meeting on the instance.
const RTP_FIRST = 20000;
const RTP_PORTS = 60;
const HEARTBEAT_SECONDS = 2;

let t: TestApp;
let base: string;
let browser: Browser | null = null;

beforeAll(async () => {
  ({ t, base } = await listeningTestApp(testClock(new Date()), {
    JANUS_RTP_PORT_RANGE: `${RTP_FIRST}-${RTP_FIRST + RTP_PORTS - 1}`,
    MEDIA_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
  }));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const meeting = (participants: Parameters<typeof insertMeeting>[2]['participants'], type: 0 | 1 = 0) =>
  insertMeeting(t.db, t.app.deps.pins, { type, start: new Date(Date.now() - 60_000), end: new Date(Date.now() + 3600_000), participants });

async function open(client: TestClient, meetingId: string, options: { origin?: string; autoPong?: boolean } = {}) {
  const res = await tokenFor(client, meetingId);
  expect(res.statusCode, res.body).toBe(200);
  const token = res.json().data.tokenData.token as string;
  const cookie = `${SESSION_COOKIE}=${client.cookies[SESSION_COOKIE]}`;
  const raw = await RawMediaClient.open(`${base.replace('http', 'ws')}/media/${meetingId}?token=${encodeURIComponent(token)}`, cookie, options);
  const hello = await raw.waitFor((m) => m.videomote === 'connected');
  return { raw, hello, token, cookie };
}

const isError = (m: Record<string, unknown>) => m.janus === 'error' || (m.plugindata as { data?: { error_code?: number } } | undefined)?.data?.error_code !== undefined;
const reason = (m: Record<string, unknown>) => String((m.error as { reason?: string } | undefined)?.reason ?? '');

/** UDP ports of the RTP range bound in this namespace (only Janus binds there): one per PeerConnection Janus holds. */
function rtpPortsInUse(): number {
  let n = 0;
  for (const line of fs.readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
    const local = line.trim().split(/\s+/)[1];
    if (!local) continue;
    const port = parseInt(local.split(':')[1]!, 16);
    if (port >= RTP_FIRST && port < RTP_FIRST + RTP_PORTS) n += 1;
  }
  return n;
}

describe('one socket against the relay caps', () => {
  it('keeps a burst of sessions, handles and messages within the caps, and drops oversized, flooding and half-open sockets', async () => {
    const m = await meeting([{ persona: 'erik', role: 'EmploymentOfficer', isAdmin: true }]);
    const erik = await t.as('erik');
    const { raw } = await open(erik, m.id);

    // Ten creates before Janus has answered any: only MAX_SESSIONS reach Janus.
    const creates = Array.from({ length: 10 }, () => raw.fire({ janus: 'create' }));
    const created = [...(await raw.answers(creates)).values()];
    const sessions = created.filter((a) => a.janus === 'success').map((a) => (a.data as { id: number }).id);
    expect(new Set(sessions).size).toBe(MAX_SESSIONS);
    expect(created.filter(isError).map(reason)).toEqual(Array(10 - MAX_SESSIONS).fill('Refused by Videomöte: too many sessions'));

    // Seventy attaches to one session at once: MAX_HANDLES_PER_SESSION handles on Janus, the rest refused.
    const attaches = Array.from({ length: 70 }, () => raw.fire({ janus: 'attach', session_id: sessions[0], plugin: 'janus.plugin.videoroom' }));
    const attached = [...(await raw.answers(attaches)).values()];
    expect(new Set(attached.filter((a) => a.janus === 'success').map((a) => (a.data as { id: number }).id)).size).toBe(MAX_HANDLES_PER_SESSION);
    expect(attached.filter(isError).map(reason)).toEqual(Array(70 - MAX_HANDLES_PER_SESSION).fill('Refused by Videomöte: too many handles'));
    raw.close();

    // A message over the frame limit (64 KB) closes the socket with 1009.
    const big = await open(erik, m.id);
    big.raw.ws.send(JSON.stringify({ janus: 'keepalive', transaction: 'x'.repeat(70_000) }));
    expect(await big.raw.closed()).toBe(1009);

    // A flood of messages is closed with 1008 (the bucket allows a browser's join burst, not a script's stream).
    const flood = await open(erik, m.id);
    const floodSession = ((await flood.raw.request({ janus: 'create' })).data as { id: number }).id;
    for (let i = 0; i < 400 && flood.raw.ws.readyState === flood.raw.ws.OPEN; i++) flood.raw.ws.send(JSON.stringify({ janus: 'keepalive', transaction: `k${i}`, session_id: floodSession }));
    expect(await flood.raw.closed()).toBe(1008);

    // A socket that answers no ping (a laptop lid closed, a half-open TCP connection) is dropped within two beats.
    const started = Date.now();
    const silent = await open(erik, m.id, { autoPong: false });
    expect(await silent.raw.closed()).toBe(1006);
    expect(Date.now() - started).toBeLessThan((2 * HEARTBEAT_SECONDS + 3) * 1000);
    await expect.poll(() => t.app.media.connections(m.id).length).toBe(0);
  }, 60_000);

  it('refuses a /media upgrade from a foreign origin, with a valid session and token', async () => {
    const m = await meeting([{ persona: 'erik', role: 'EmploymentOfficer', isAdmin: true }]);
    const erik = await t.as('erik');
    expect((await erik.post(`/api/lobby/${m.id}/consent`, {})).statusCode).toBe(200);
    const token = (await erik.post('/api/meeting/gettoken', { meetingId: m.id })).json().data.tokenData.token as string;
    const url = `${base.replace('http', 'ws')}/media/${m.id}?token=${encodeURIComponent(token)}`;
    const cookie = `${SESSION_COOKIE}=${erik.cookies[SESSION_COOKIE]}`;
    await expect(RawMediaClient.open(url, cookie, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    const own = await RawMediaClient.open(url, cookie, { origin: base });
    own.close();
  });
});

describe('PeerConnections and the RTP ports they take', () => {
  /** A participant's page, past the lobby's consent for the meeting (given through the API with the same session). */
  async function pageFor(client: TestClient, meetingId: string): Promise<Page> {
    expect((await client.post(`/api/lobby/${meetingId}/consent`, {})).statusCode).toBe(200);
    browser ??= await launchBrowser();
    const { context, page } = await newUserPage(browser, base);
    await context.addCookies([{ name: SESSION_COOKIE, value: client.cookies[SESSION_COOKIE]!, url: base }]);
    return page;
  }

  async function joinCall(page: Page, meetingId: string): Promise<void> {
    await page.goto(`${base}/meetings/${meetingId}/conference?vmtest=1`);
    await page.waitForFunction(() => document.querySelector('.conference')?.getAttribute('data-connection-status') === 'connected', null, { timeout: 60_000 });
  }

  /** Video frames the page has decoded from the others (its subscriber PeerConnections). */
  function framesReceived(page: Page): Promise<number> {
    return page.evaluate(async () => {
      const h = (window as unknown as { __videomoteTest?: { session: { peerConnections(): { role: string; pc: RTCPeerConnection }[] } } }).__videomoteTest;
      let frames = 0;
      for (const { role, pc } of h?.session.peerConnections() ?? []) {
        if (role !== 'subscriber') continue;
        (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => {
          if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded ?? 0;
        });
      }
      return frames;
    });
  }

  it('refuses one participant PeerConnections past their cap, while another meeting still connects and receives media', async () => {
    const a = await meeting([{ persona: 'erik', role: 'EmploymentOfficer', isAdmin: true }]);
    const b = await meeting([
      { persona: 'karin', role: 'PrivateContractor', isAdmin: true },
      { persona: 'fredrik', role: 'PrivateContractor' },
    ]);
    const before = rtpPortsInUse();

    // Erik publishes his camera from the meeting screen, then opens subscriber after subscriber to it from a script.
    const erik = await t.as('erik');
    const erikPage = await pageFor(erik, a.id);
    await joinCall(erikPage, a.id);
    await erikPage.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 30_000 }).catch(() => {});
    await expect.poll(() => t.app.media.connections(a.id).find((c) => c.feedId)?.feedId ?? null, { timeout: 30_000 }).toBeTruthy();
    const feedId = t.app.media.connections(a.id).find((c) => c.feedId)!.feedId;
    const attacker = await open(erik, a.id);

    // As many subscriber handles as Janus has ports here, in two sessions.
    const handles: { session: number; handle: number }[] = [];
    const sessions: number[] = [];
    // Kept alive as janus.js does: otherwise Janus would end the sessions after 60 s and give the ports back.
    const keepalive = setInterval(() => {
      for (const session of sessions) if (attacker.raw.ws.readyState === attacker.raw.ws.OPEN) attacker.raw.fire({ janus: 'keepalive', session_id: session });
    }, 10_000);
    for (let s = 0; s < 2; s++) {
      const session = ((await attacker.raw.request({ janus: 'create' })).data as { id: number }).id;
      sessions.push(session);
      const attaches = Array.from({ length: RTP_PORTS / 2 }, () => attacker.raw.fire({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' }));
      for (const answer of (await attacker.raw.answers(attaches)).values()) handles.push({ session, handle: (answer.data as { id: number }).id });
    }
    expect(handles).toHaveLength(RTP_PORTS);
    const joins = handles.map(({ session, handle }) =>
      attacker.raw.fire({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'subscriber', room: attacker.hello.roomId, streams: [{ feed: feedId }] } }),
    );
    const joined = [...(await attacker.raw.answers(joins, 60_000)).values()];
    const accepted = joined.filter((j) => !isError(j));
    const refused = joined.filter((j) => j.janus === 'error').map(reason);
    // Erik's camera publisher is one of his PeerConnections: the script gets the rest of his budget.
    expect(accepted).toHaveLength(DEFAULT_MEDIA_LIMITS.perParticipant - 1);
    expect(new Set(refused)).toEqual(new Set(['Refused by Videomöte: too many peer connections for one participant']));
    // Measured on Janus: one port per PeerConnection, no more than the budget.
    await expect.poll(() => rtpPortsInUse() - before, { timeout: 20_000 }).toBeGreaterThanOrEqual(DEFAULT_MEDIA_LIMITS.perParticipant - 1);
    expect(rtpPortsInUse() - before).toBeLessThanOrEqual(DEFAULT_MEDIA_LIMITS.perParticipant);

    // Meeting B on the same Janus: both connect, publish and receive each other's video.
    const pages = [await pageFor(await t.as('karin'), b.id), await pageFor(await t.as('fredrik'), b.id)];
    for (const p of pages) await joinCall(p, b.id);
    for (const p of pages) await p.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 30_000 }).catch(() => {});
    for (const p of pages) await expect.poll(() => framesReceived(p), { timeout: 60_000 }).toBeGreaterThan(10);
    // All the while the script held its whole budget: B got ports because the budget left them, not because Janus freed any.
    expect(rtpPortsInUse() - before).toBeGreaterThanOrEqual(DEFAULT_MEDIA_LIMITS.perParticipant + 2);
    clearInterval(keepalive);
    attacker.raw.close();
    for (const p of [erikPage, ...pages]) await p.context().close();
  }, 240_000);
});
