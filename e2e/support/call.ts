import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromium } from 'playwright-core';
import { startOfLocalDay } from '@videomote/contract/meeting-rules';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { Bench } from './bench.ts';

/**
 * The bench of the meeting-screen browser tests: personas logged in through the IdP, meetings booked by the API,
 * and other Chromiums with other fake devices where a test needs them.
 */
export class CallBench extends Bench {
  private readonly extra: Browser[] = [];

  override async stop(): Promise<void> {
    await super.stop();
    for (const b of this.extra) await b.close().catch(() => {});
  }

  /** Another Chromium with other fake-device flags (e.g. `--use-fake-device-for-media-stream=device-count=2`). */
  async launch(replaceArgs: Record<string, string>): Promise<Browser> {
    const args = CHROMIUM_ARGS.map((a) => replaceArgs[a] ?? a);
    for (const [k, v] of Object.entries(replaceArgs)) if (!CHROMIUM_ARGS.includes(k)) args.push(v);
    const b = await chromium.launch({ executablePath: CHROMIUM, args: [...args, '--use-fake-ui-for-media-stream'], headless: true });
    this.extra.push(b);
    return b;
  }
}

/**
 * Books a meeting through the API as the page's user, starting within a few minutes and lasting under an hour
 * inside one Stockholm day. The start is a whole minute at least a minute ahead: the server checks it against
 * its own clock when the request arrives, and on a loaded machine that can be seconds later than ours.
 */
export async function book(page: Page, meeting: Record<string, unknown>): Promise<{ id: string; roomId: string }> {
  let times = bookableToday(new Date());
  // In a day's last minutes no such meeting fits before midnight, and one booked for the new day is tomorrow's to the
  // home card and the public page: wait for the new day instead (at most a few minutes, once a day).
  if (!times) {
    await new Promise((r) => setTimeout(r, startOfLocalDay(new Date(), 1).getTime() - Date.now() + 1000));
    times = bookableToday(new Date())!;
  }
  const body = { title: 'Konferenstest', type: 0, startTime: times.start.toISOString(), endTime: times.end.toISOString(), ...meeting };
  const res = await apiCall(page, 'POST', '/api/meeting', body);
  expect(res.status, res.body).toBe(200);
  return JSON.parse(res.body).data;
}

/** A start a whole minute at least a minute ahead, and an end up to an hour later, both today (Stockholm); none in a day's last minutes. */
function bookableToday(now: Date): { start: Date; end: Date } | null {
  const start = new Date(now.getTime() + 120_000);
  start.setSeconds(0, 0);
  const end = new Date(Math.min(start.getTime() + 3600_000, startOfLocalDay(now, 1).getTime() - 60_000));
  return end.getTime() > start.getTime() ? { start, end } : null;
}

/** A call to our API from inside the page, with its session cookie and the anti-forgery header. */
export async function apiCall(page: Page, method: string, path: string, data?: unknown): Promise<{ status: number; body: string }> {
  return page.evaluate(
    async ({ method, path, data }) => {
      const send = async () => {
        await fetch('/api/getantiforgerydata');
        const xsrf = decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='))?.slice(11) ?? '');
        const r = await fetch(path, {
          method,
          headers: { ...(data === undefined ? {} : { 'content-type': 'application/json' }), 'x-xsrf-token': xsrf },
          body: data === undefined ? undefined : JSON.stringify({ data }),
        });
        return { status: r.status, body: await r.text() };
      };
      // A page that has just loaded may still have its own first anti-forgery call in flight: when both calls found no
      // cookie, the later answer replaces the token read here. Read it again once, as the app would on its next call.
      const first = await send();
      return first.status === 403 && first.body.includes('anti-forgery') ? send() : first;
    },
    { method, path, data },
  );
}

/**
 * Ticks the lobby's consent box for the page's user, through the consent API (the lobby itself sends the consent with
 * its request for the media token): the token needs it. Returns the status (403 for someone who is not a participant).
 */
export async function giveConsent(page: Page, meetingId: string): Promise<number> {
  return (await apiCall(page, 'POST', `/api/lobby/${meetingId}/consent`, {})).status;
}

/**
 * Into the call, past the lobby's consent (given through its API: the lobby itself has its own tests). A webcast's
 * anonymous visitor has no lobby to pass.
 */
export async function enter(page: Page, meetingId: string, options: { visitor?: boolean } = {}): Promise<void> {
  if (!page.url().startsWith('http')) await page.goto('/meetings', { timeout: 90_000 });
  if (!options.visitor) expect(await giveConsent(page, meetingId)).toBe(200);
  // Generous: with nine pages in a call on two cores, a page load alone can take half a minute.
  await page.goto(`/meetings/${meetingId}/conference?vmtest=1`, { timeout: 90_000 });
  await expect.poll(() => page.title(), { timeout: 30_000 }).toBe('Videomöte - Pågående möte');
  await expect
    .poll(() => page.locator('.conference').getAttribute('data-connection-status', { timeout: 1_000 }).catch(() => 'absent'), { timeout: 60_000 })
    .toBe('connected');
}

export interface Inbound {
  streamId: string;
  framesDecoded: number;
  audioPackets: number;
  audioBytes: number;
  /** For a failure's message: what reached the decoder's side, and how often it asked the sender for a key frame. */
  videoPackets: number;
  pliCount: number;
}

/** Inbound media per received stream (RTCPeerConnection.getStats through the page's test hook). */
export async function inbound(page: Page): Promise<Inbound[]> {
  return page.evaluate(async () => {
    const hook = (window as unknown as { __videomoteTest?: { session: { peerConnections(): { role: string; streamId: string; pc: RTCPeerConnection; mids?: string[] }[] } } }).__videomoteTest;
    if (!hook) return [];
    const out: Inbound[] = [];
    // Every received stream shares the one subscriber connection: each entry's `mids` say which stats are its.
    for (const { role, streamId, pc, mids } of hook.session.peerConnections()) {
      if (role !== 'subscriber') continue;
      const s: Inbound = { streamId, framesDecoded: 0, audioPackets: 0, audioBytes: 0, videoPackets: 0, pliCount: 0 };
      (await pc.getStats()).forEach((r: { type: string; kind?: string; mid?: string; framesDecoded?: number; packetsReceived?: number; bytesReceived?: number; pliCount?: number }) => {
        if (r.type !== 'inbound-rtp' || (mids && !mids.includes(String(r.mid)))) return;
        if (r.kind === 'video') {
          s.framesDecoded += r.framesDecoded ?? 0;
          s.videoPackets += r.packetsReceived ?? 0;
          s.pliCount += r.pliCount ?? 0;
        }
        if (r.kind === 'audio') {
          s.audioPackets += r.packetsReceived ?? 0;
          s.audioBytes += r.bytesReceived ?? 0;
        }
      });
      out.push(s);
    }
    return out;
  });
}

/** Frames decoded so far on the stream whose id starts with `prefix` (camera-…, screen-…). */
export async function framesOf(page: Page, prefix: string): Promise<number> {
  return (await inbound(page)).filter((s) => s.streamId.startsWith(prefix)).reduce((n, s) => n + s.framesDecoded, 0);
}

/**
 * Waits until the stream keeps decoding: more frames now than a moment ago. `prefix` may be read afresh at every
 * look (a sender's stream id changes when its page starts its connection afresh).
 */
export async function keepsDecoding(page: Page, prefix: string | (() => Promise<string>), timeout = 45_000): Promise<void> {
  const current = typeof prefix === 'string' ? async () => prefix : prefix;
  let last = -1;
  // On failure, say what the page did receive (which streams, how many frames) rather than just "false".
  const seen = async () => {
    const state = await page
      .evaluate(async () => {
        const hook = (window as unknown as { __videomoteTest?: { session: { e2ee: { counts(): Promise<unknown> } }; model: { getState(): { videoLayers: unknown } } } }).__videomoteTest;
        return hook ? { decryption: await hook.session.e2ee.counts(), layers: hook.model.getState().videoLayers } : null;
      })
      .catch(() => null);
    return `${JSON.stringify(await inbound(page).catch(() => []))}; ${JSON.stringify(state)}`;
  };
  await expect
    .poll(
      async () => {
        const now = await framesOf(page, await current());
        const growing = last >= 0 && now > last && now > 0;
        last = now;
        return growing;
      },
      { timeout, interval: 1_000, message: `no growing frames on ${await current()}` },
    )
    .toBe(true)
    .catch(async (err: Error) => {
      throw new Error(`${err.message}; page ${page.url()} receives ${await seen()}`);
    });
}

export const status = (page: Page) => page.locator('.call-status');
export const toolbar = (page: Page) => page.locator('.conference-toolbar');

/** The page's own media connection id (from the call model behind the test hook). */
export async function connectionIdOf(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { __videomoteTest: { model: { getState(): { connectionId: string } } } }).__videomoteTest.model.getState().connectionId);
}

/** The page's person has a camera but no microphone: the call publishes their video only. */
export async function withoutMicrophone(p: Page): Promise<void> {
  await p.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = (constraints) => original({ ...constraints, audio: false });
    const list = devices.enumerateDevices.bind(devices);
    devices.enumerateDevices = async () => (await list()).filter((d) => d.kind !== 'audioinput');
  });
}
