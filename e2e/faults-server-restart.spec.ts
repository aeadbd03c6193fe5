import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { startOfLocalDay } from '@videomote/contract/meeting-rules';
import { useBench } from './support/bench.ts';
import { enter } from './support/call.ts';
import { chatPanel, messages, say } from './support/chat-panel.ts';
import { freePort, startServer } from './support/server.ts';
import type { PersonaKey } from './support/login.ts';
import { ERIK_WITH_JONNA, seededDataDir, underWayNow } from './support/seed.ts';

// Fault test: the server process is killed with SIGKILL in the middle of a call and started again on the same port
// and DATA_DIR, as a process manager would. The pages are not reloaded: chat must reconnect by itself (the chat
// socket retries every 5 s, conference spec §9), media must flow again on new PeerConnections, and a meeting booked
// just before the kill must still be there. Janus being killed alone is covered by conference.spec.ts.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 100 } } });

let port = 0;
let dataDir = '';
const ids = { meeting: '' };

const bench = useBench(async () => {
  const seeded = await seededDataDir((insert) =>
    insert({
      title: 'Samtal som överlever',
      type: 0,
      ...underWayNow(),
      participants: ERIK_WITH_JONNA,
    }),
  );
  ids.meeting = seeded.seeded.id;
  dataDir = seeded.dataDir;
  port = await freePort();
  return { dataDir, port };
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
  const page = await bench.person(key);
  await enter(page, ids.meeting);
  return page;
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
    // Tomorrow at 10 (Stockholm): two hours ahead crossed midnight when the run fell at 21-22 in Stockholm.
    const startAt = startOfLocalDay(new Date(), 1).getTime() + 10 * 3600_000;
    const booked = await erik.evaluate(async (startAt) => {
      const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const start = new Date(startAt);
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
    }, startAt);
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
    const oldServerPid = bench.server.process.pid!;
    await bench.server.stop('SIGKILL');
    // A Janus left behind by the killed server would hold its ports and CPU forever: it must go.
    await expect.poll(() => janusPids().filter((j) => j.pid === oldJanus[0]!.pid).length, { timeout: 20_000 }).toBe(0);

    bench.server = await startServer({}, { dataDir, port });
    const back = Date.now();
    expect(bench.server.process.pid).not.toBe(oldServerPid);

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
