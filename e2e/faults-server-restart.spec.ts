import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newUserPage } from './support/browser.ts';
import { freePort, startServer, type RunningServer } from './support/server.ts';
import { loginAs, type PersonaKey } from './support/login.ts';
import { migrate, openPglite } from '../apps/server/src/platform/db.ts';
import { loadSecretKey, pinCrypto } from '../apps/server/src/platform/crypto.ts';
import { insertMeeting } from '../apps/server/src/testing/fixtures.ts';

// Fault test: the server process is killed with SIGKILL in the middle of a call and started again on the same port
// and DATA_DIR, as a process manager would. The pages are not reloaded: chat must reconnect by itself (the chat
// socket retries every 5 s, conference spec §9), media must flow again on new PeerConnections, and a meeting booked
// just before the kill must still be there. Janus being killed alone is covered by conference.spec.ts.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 100 } } });

let server: RunningServer;
let browser: Browser;
let port = 0;
let dataDir = '';
const contexts: BrowserContext[] = [];
const ids = { meeting: '' };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-e2e-faults-'));
  const db = await openPglite(path.join(dataDir, 'db'));
  await migrate(db);
  const pins = pinCrypto(loadSecretKey(dataDir, null));
  const now = Date.now();
  const meeting = await insertMeeting(db, pins, {
    title: 'Samtal som överlever',
    type: 0,
    start: new Date(now - 10 * 60_000),
    end: new Date(now + 60 * 60_000),
    participants: [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ],
  });
  await db.close();
  ids.meeting = meeting.id;
  port = await freePort();
  [server, browser] = await Promise.all([startServer({}, { dataDir, port }), launchBrowser()]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

function janusPids(): { pid: number; ppid: number }[] {
  const out: { pid: number; ppid: number }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm !== 'janus') continue;
      // Only Janus instances configured under this test's DATA_DIR: other tests' Janus are not ours.
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(dataDir)) continue;
      out.push({ pid: Number(entry), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) });
    } catch {
      /* gone */
    }
  }
  return out;
}

async function person(key: PersonaKey): Promise<Page> {
  const { context, page } = await newUserPage(browser, server.url);
  contexts.push(context);
  await loginAs(page, key, '/meetings');
  await page.goto(`/meetings/${ids.meeting}/conference?vmtest=1`);
  await expect.poll(() => page.title()).toBe('Videomöte - Pågående möte');
  await expect.poll(() => connectionStatus(page)).toBe('connected');
  return page;
}

const connectionStatus = (page: Page) =>
  page.locator('.conference').getAttribute('data-connection-status', { timeout: 1_000 }).catch(() => 'absent');
const chatPanel = (page: Page) => page.getByRole('region', { name: 'Chatt' });
const messages = (page: Page) => page.getByRole('log', { name: 'Chattmeddelanden' });

/** Sends a chat message; answers when the input cleared (only a message that went out clears it). */
async function say(page: Page, text: string, timeout = 30_000): Promise<void> {
  const input = chatPanel(page).getByRole('textbox', { name: 'Skriv ett meddelande' });
  await input.fill(text);
  const deadline = Date.now() + timeout;
  for (;;) {
    await chatPanel(page).getByRole('button', { name: 'Skicka' }).click();
    await new Promise((r) => setTimeout(r, 100));
    if ((await input.inputValue()) === '') return;
    if (Date.now() > deadline) throw new Error(`chat message "${text}" not sent within ${timeout} ms`);
  }
}

/** Inbound media on subscriber PeerConnections that are not the remembered (pre-kill) ones. */
async function receivesFreshMedia(page: Page, timeout: number): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const w = window as unknown as { __oldPcs?: Set<RTCPeerConnection>; __videomoteTest?: { session: { peerConnections(): { role: string; pc: RTCPeerConnection }[] } } };
          const subs = (w.__videomoteTest?.session.peerConnections() ?? []).filter((x) => x.role === 'subscriber' && !w.__oldPcs?.has(x.pc));
          if (subs.length !== 1) return false;
          let frames = 0;
          let audio = 0;
          (await subs[0]!.pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number; packetsReceived?: number }) => {
            if (s.type !== 'inbound-rtp') return;
            if (s.kind === 'video') frames += s.framesDecoded ?? 0;
            if (s.kind === 'audio') audio += s.packetsReceived ?? 0;
          });
          return frames > 0 && audio > 0;
        }),
      { timeout, interval: 500 },
    )
    .toBe(true);
}

describe('the server killed with SIGKILL mid-call and restarted on the same port and DATA_DIR', () => {
  it('keeps the bookings, chat reconnects by itself within the 5 s retry, and media flows again without reloading', async () => {
    const erik = await person('erik');
    const jonna = await person('jonna');
    for (const page of [erik, jonna]) {
      await page.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 15_000 });
      await page.getByRole('button', { name: /^Chatt/ }).click();
      await chatPanel(page).waitFor();
    }
    await receivesFreshMedia(erik, 60_000);
    await receivesFreshMedia(jonna, 60_000);
    await say(erik, 'Före omstarten');
    await expect.poll(() => messages(jonna).getByText('Före omstarten').count()).toBe(1);

    // A meeting booked through the API just before the kill.
    const booked = await erik.evaluate(async () => {
      const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const start = new Date(Date.now() + 2 * 3600_000);
      start.setMinutes(0, 0, 0);
      const res = await fetch('/api/meeting', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrf },
        body: JSON.stringify({
          data: {
            title: 'Bokat före kraschen',
            type: 0,
            startTime: start.toISOString(),
            endTime: new Date(start.getTime() + 3600_000).toISOString(),
            participants: [{ currentUser: true, role: 'EmploymentOfficer', isAdmin: true }],
          },
        }),
      });
      return { status: res.status, body: (await res.json()) as { data?: { id: string } } };
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);

    const remember = () => {
      const w = window as unknown as { __oldPcs?: Set<RTCPeerConnection>; __marker?: number; __videomoteTest: { session: { peerConnections(): { pc: RTCPeerConnection }[] } } };
      w.__oldPcs = new Set(w.__videomoteTest.session.peerConnections().map((x) => x.pc));
      w.__marker = 7;
    };
    await erik.evaluate(remember);
    await jonna.evaluate(remember);

    const oldJanus = janusPids();
    expect(oldJanus.length).toBe(1);
    const oldServerPid = server.process.pid!;
    await server.stop('SIGKILL');
    // A Janus left behind by the killed server would hold its ports and CPU forever: it must go.
    await expect.poll(() => janusPids().filter((j) => j.pid === oldJanus[0]!.pid).length, { timeout: 20_000 }).toBe(0);

    server = await startServer({}, { dataDir, port });
    const back = Date.now();
    expect(server.process.pid).not.toBe(oldServerPid);

    // Chat: the sockets retry every 5 s, so the first message goes out within one retry period of the server
    // answering (plus the reconnect itself on this shared two-core machine).
    await say(erik, 'Efter omstarten', 20_000);
    const chatBackMs = Date.now() - back;
    await expect.poll(() => messages(jonna).getByText('Efter omstarten').count()).toBe(1);
    console.log(`chat back ${chatBackMs} ms after the restarted server answered`);
    expect(chatBackMs).toBeLessThan(5_000 + 3_000);

    // Media: new PeerConnections through the new server's Janus; the pages were never reloaded.
    await receivesFreshMedia(erik, 90_000);
    await receivesFreshMedia(jonna, 90_000);
    expect(await erik.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);
    expect(await jonna.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);
    expect(janusPids().length).toBe(1);

    // The booking made just before the kill is still there.
    const after = await erik.evaluate(async (id) => {
      const res = await fetch(`/api/meeting/${id}`);
      return { status: res.status, title: ((await res.json()) as { data?: { title: string } }).data?.title };
    }, booked.body.data!.id);
    expect(after).toEqual({ status: 200, title: 'Bokat före kraschen' });
  }, 360_000);
});
