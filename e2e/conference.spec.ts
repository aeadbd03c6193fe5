import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { useBench } from './support/bench.ts';
import { BOOKER_AS_OFFICER, BOOKER_AS_PRESENTER, JONNA_BY_PIN, KARIN_BY_PIN } from './support/booking.ts';
import { loginAs, type PersonaKey } from './support/login.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { apiCall, book, enter, status } from './support/call.ts';
import { rawPublishAttempt } from './support/raw-media-in-page.ts';
import { mediaTotalsInPage, RECORD_PEER_CONNECTIONS } from './support/peer-connections.ts';

// The meeting screen through the real server, the embedded Janus and Chromium's fake camera and microphone,
// all inside the test's network namespace (media flows 127.0.0.2 <-> 127.0.0.2).
// Two cores shared by Chromium, Janus and the server: give page changes time.
vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 100 } } });

const bench = useBench();
const person = (key: PersonaKey) => bench.person(key);

/** Inbound media per received stream (all on the one subscriber PeerConnection), from RTCPeerConnection.getStats. */
async function inbound(page: Page): Promise<{ streamId: string; framesDecoded: number; audioPackets: number; old: boolean }[]> {
  return page.evaluate(async () => {
    const old = (window as unknown as { __oldPcs?: Set<RTCPeerConnection> }).__oldPcs;
    const hook = (window as unknown as { __videomoteTest?: { session: { peerConnections(): { role: string; streamId: string; pc: RTCPeerConnection; mids?: string[] }[] } } }).__videomoteTest;
    if (!hook) return [];
    const out = [];
    for (const { role, streamId, pc, mids } of hook.session.peerConnections()) {
      if (role !== 'subscriber') continue;
      let framesDecoded = 0;
      let audioPackets = 0;
      (await pc.getStats()).forEach((s: { type: string; kind?: string; mid?: string; framesDecoded?: number; packetsReceived?: number }) => {
        if (s.type !== 'inbound-rtp' || (mids && !mids.includes(String(s.mid)))) return;
        if (s.kind === 'video') framesDecoded += s.framesDecoded ?? 0;
        if (s.kind === 'audio') audioPackets += s.packetsReceived ?? 0;
      });
      out.push({ streamId, framesDecoded, audioPackets, old: Boolean(old?.has(pc)) });
    }
    return out;
  });
}

/** Waits until every one of `n` remote streams decodes video frames and receives audio packets. */
async function receivesMedia(page: Page, n: number, timeout = 30_000): Promise<void> {
  await expect
    .poll(async () => {
      const s = await inbound(page);
      return s.length === n && s.every((x) => !x.old && x.framesDecoded > 0 && x.audioPackets > 0);
    }, { timeout, interval: 500 })
    .toBe(true);
}

function janusPidOf(serverPid: number): number | null {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'janus' && ppid === serverPid) return Number(entry);
    } catch {
      /* gone */
    }
  }
  return null;
}

/** Two seconds of 48 kHz mono 16-bit silence as a WAV file, for a fake microphone that hears nothing. */
function silenceWav(): string {
  const samples = 96_000;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(48_000, 24);
  header.writeUInt32LE(96_000, 28); // bytes a second
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits a sample
  header.write('data', 36);
  header.writeUInt32LE(samples * 2, 40);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vm-mic-')), 'silence.wav');
  fs.writeFileSync(file, Buffer.concat([header, Buffer.alloc(samples * 2)]));
  return file;
}

/** Pairs of overlapping boxes among each tile's name, microphone and tools (assurance, pin, admin, signal), if any. */
async function tileOverlaps(page: Page): Promise<string[]> {
  return page.locator('.tile').evaluateAll((tiles) => {
    const out: string[] = [];
    for (const tile of tiles) {
      const parts = Array.from(tile.querySelectorAll('.tile__name, .tile__mic, .tile__tools > *, .tile__tools .assurance'))
        .filter((el) => !el.closest('.tile__kept') && !el.classList.contains('tile__kept'))
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0);
      const t = tile.getBoundingClientRect();
      for (const { el, r } of parts) {
        // Inside the tile (1 px rounding), readable: not cut off by the tile's edges.
        if (r.left < t.left - 1 || r.right > t.right + 1 || r.top < t.top - 1 || r.bottom > t.bottom + 1) out.push(`${el.className} outside tile`);
      }
      for (let i = 0; i < parts.length; i++) {
        for (let j = i + 1; j < parts.length; j++) {
          const a = parts[i]!, b = parts[j]!;
          if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
          const overlap = a.r.left < b.r.right - 0.5 && b.r.left < a.r.right - 0.5 && a.r.top < b.r.bottom - 0.5 && b.r.top < a.r.bottom - 0.5;
          if (overlap) out.push(`${a.el.className} / ${b.el.className}: ${a.el.textContent} / ${b.el.textContent}`);
        }
      }
    }
    return out;
  });
}

describe('a Meeting', () => {
  let erik: Page;
  let jonna: Page;
  let meeting: { id: string; roomId: string };

  beforeAll(async () => {
    [erik, jonna] = await Promise.all([person('erik'), person('jonna')]);
    meeting = await book(erik, {
      participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN, KARIN_BY_PIN],
    });
  });

  it('two participants each receive the other\'s video and audio', async () => {
    await enter(erik, meeting.id);
    await expect.poll(() => status(erik).textContent()).toBe('Ingen annan är ansluten till mötet');
    // The lobby's device choice (labels as JSON strings) is matched case-insensitively.
    await jonna.evaluate(() => localStorage.setItem('audio_device', JSON.stringify('FAKE AUDIO INPUT 2')));
    // Opening the meeting page, the token is asked for once: by the page's first script, not again by the route.
    const tokenRequests: string[] = [];
    const countToken = (r: { url(): string }) => void (r.url().endsWith('/api/meeting/gettoken') && tokenRequests.push(r.url()));
    jonna.on('request', countToken);
    await enter(jonna, meeting.id);
    jonna.off('request', countToken);
    expect(tokenRequests).toHaveLength(1);
    for (const page of [erik, jonna]) {
      await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe('2 personer deltar i mötet');
      // Audio on, video off first: the own tile shows initials until the camera is switched on.
      await page.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 15_000 });
      await expect.poll(() => page.getByRole('button', { name: 'Stäng av din kamera' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Stäng av din mikrofon' }).count()).toBe(1);
    }
    await receivesMedia(erik, 1);
    await receivesMedia(jonna, 1);
    const sentAudio = await jonna.evaluate(() => {
      const hook = (window as unknown as { __videomoteTest: { session: { peerConnections(): { role: string; pc: RTCPeerConnection }[] } } }).__videomoteTest;
      const pub = hook.session.peerConnections().find((x) => x.role === 'publisher');
      return pub?.pc.getSenders().find((x) => x.track?.kind === 'audio')?.track?.label ?? null;
    });
    expect(sentAudio).toBe('Fake Audio Input 2');
    // What an operator's Prometheus sees meanwhile: one room, two connections, two publishers.
    const metrics = await (await fetch(`${bench.server.internalUrl}/metrics`)).text();
    const gauge = (name: string) => Number(metrics.split('\n').find((l) => l.startsWith(`${name} `))?.split(' ')[1]);
    expect([gauge('videomote_media_rooms'), gauge('videomote_media_connections'), gauge('videomote_media_publishers')]).toEqual([1, 2, 2]);
    expect(await (await fetch(`${bench.server.internalUrl}/readyz`)).json()).toEqual({ status: 'ready', checks: { database: true, janus: true } });
    await expect.poll(() => erik.locator('.tile figcaption', { hasText: 'Jonna Sökande' }).count()).toBe(1);
    await expect.poll(() => jonna.locator('.tile[data-has-video="true"] figcaption', { hasText: 'Erik Handläggare' }).count()).toBe(1);
    // The test system's banner is shown in the full-window conference too, and covers none of it.
    expect(await erik.getByRole('complementary', { name: 'Testsystem' }).textContent()).toContain('Testinloggning – inte för riktiga möten');
    expect(await seriousAxeViolations(erik)).toEqual([]);
    // Name, microphone, assurance badge, pin and the moderator's mute button never cover each other (found in QA):
    // on a desktop, with the participants panel narrowing the tiles, and on a 375 px phone.
    await expect.poll(() => erik.locator('.tile .tile__tools').getByRole('button', { name: /^Fäst / }).count()).toBe(2);
    expect(await tileOverlaps(erik)).toEqual([]);
    await erik.getByRole('button', { name: 'Deltagare', exact: true }).click();
    await expect.poll(() => erik.locator('.participants-panel').count()).toBe(1);
    expect(await tileOverlaps(erik)).toEqual([]);
    await erik.getByRole('button', { name: 'Deltagare', exact: true }).click();
    await jonna.setViewportSize({ width: 375, height: 740 });
    await expect.poll(() => jonna.locator('.conference-toolbar').isVisible()).toBe(false);
    expect(await tileOverlaps(jonna)).toEqual([]);
    expect(await jonna.locator('.tile__name').evaluateAll((els) => els.map((el) => [el.getBoundingClientRect().width > 20, el.getAttribute('title')]))).toEqual([
      [true, expect.any(String)],
      [true, expect.any(String)],
    ]);
    expect(await seriousAxeViolations(jonna)).toEqual([]);
    await jonna.setViewportSize({ width: 1280, height: 800 });
  });

  it('three participants see a grid of three; a silent microphone sends a frame every 400 ms, not 50 a second', async () => {
    // Karin's microphone hears nothing (it plays a file of silence): with Opus DTX her browser sends a comfort-noise
    // frame every 400 ms instead of 50 frames a second.
    const silent = await launchBrowser({ args: [`--use-file-for-fake-audio-capture=${silenceWav()}`] });
    try {
      const karin = await bench.person('karin', silent);
      await karin.context().addInitScript(RECORD_PEER_CONNECTIONS);
      await enter(karin, meeting.id);
      for (const page of [erik, jonna, karin]) {
        await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toBe('3 personer deltar i mötet');
        await expect.poll(() => page.locator('.main-grid.grid-3 > .tile').count(), { timeout: 15_000 }).toBe(3);
      }
      await receivesMedia(karin, 2);
      // She subscribed to the others a render before her page had drawn their tiles: their cameras started at the
      // layer a cell of the grid of three needs on her window, not at Janus's top layer (the whole 720p stream).
      const firstLayers = await karin.evaluate(() => {
        const hook = (window as unknown as { __videomoteTest: { session: { remote: { asked: Map<number, { streamId: string; first?: { substream: number } }> } } } }).__videomoteTest;
        return [...hook.session.remote.asked.values()].filter((a) => a.streamId.startsWith('camera-')).map((a) => a.first?.substream ?? 'top');
      });
      expect(firstLayers).toEqual([expect.any(Number), expect.any(Number)]);
      expect(Math.max(...(firstLayers as number[]))).toBeLessThan(2);
      const dtxAnswered = await karin.evaluate(() => {
        const hook = (window as unknown as { __videomoteTest: { session: { peerConnections(): { role: string; pc: RTCPeerConnection }[] } } }).__videomoteTest;
        const pc = hook.session.peerConnections().find((x) => x.role === 'publisher')!.pc;
        return /a=fmtp:\d+ [^\r\n]*usedtx=1/.test(pc.remoteDescription?.sdp ?? '');
      });
      const before = await karin.evaluate(mediaTotalsInPage);
      await new Promise((r) => setTimeout(r, 4_000));
      const after = await karin.evaluate(mediaTotalsInPage);
      // Janus's answer allows DTX; without it Opus sends 50 packets a second whatever the microphone hears.
      expect(dtxAnswered).toBe(true);
      expect((after.audioPacketsSent - before.audioPacketsSent) / 4).toBeLessThan(10);
      // Mute shows on the others' tiles.
      await karin.getByRole('button', { name: 'Stäng av din mikrofon' }).click();
      await expect.poll(() => erik.locator('.tile', { hasText: 'Karin' }).getByRole('img', { name: 'Mikrofonen är avstängd' }).count()).toBe(1);
      await karin.getByRole('button', { name: 'Lägg på' }).click();
      await expect.poll(() => new URL(karin.url()).pathname).not.toContain('/conference');
      await expect.poll(() => status(erik).textContent(), { timeout: 15_000 }).toBe('2 personer deltar i mötet');
    } finally {
      await silent.close();
    }
  });

  it('survives Janus being killed mid-call: the supervisor restarts it and media flows again without reloading', async () => {
    await receivesMedia(erik, 1);
    const pid = janusPidOf(bench.server.process.pid!);
    expect(pid).not.toBeNull();
    // Remember the current peer connections: media must flow again on new ones, not on these.
    const forget = () => {
      const w = window as unknown as { __oldPcs?: Set<RTCPeerConnection>; __videomoteTest: { session: { peerConnections(): { pc: RTCPeerConnection }[] } } };
      w.__oldPcs = new Set(w.__videomoteTest.session.peerConnections().map((x) => x.pc));
    };
    await erik.evaluate(forget);
    await jonna.evaluate(forget);
    const marker = await erik.evaluate(() => ((window as unknown as { __marker?: number }).__marker = 42));
    process.kill(pid!, 'SIGKILL');
    await expect.poll(() => janusPidOf(bench.server.process.pid!), { timeout: 20_000 }).not.toBe(pid);
    await expect.poll(() => janusPidOf(bench.server.process.pid!), { timeout: 20_000 }).not.toBeNull();
    await receivesMedia(erik, 1, 60_000);
    await receivesMedia(jonna, 1, 60_000);
    // Same page, not reloaded.
    expect(await erik.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(marker);
    await expect.poll(() => status(erik).textContent()).toBe('2 personer deltar i mötet');
  });
  it('adapts the layout: focus and minis by double-click, icon-only control bar on tablet and phone, no toolbar on phones', async () => {
    const labelWidth = () => erik.locator('.control__label').first().evaluate((el) => el.getBoundingClientRect().width);
    await erik.setViewportSize({ width: 1366, height: 800 });
    await expect.poll(labelWidth).toBeGreaterThan(10);
    // Maximise the other participant: focus fills the main area, the own camera becomes a side tile.
    await erik.getByRole('button', { name: 'Maximera Jonna Sökande' }).click();
    await expect.poll(() => erik.locator('.main-grid.focus > .tile').count()).toBe(1);
    expect(await erik.locator('.side-tiles .tile').count()).toBe(0);
    await erik.locator('.video-area').dblclick();
    await expect.poll(() => erik.locator('.side-tiles .tile').count()).toBe(1);
    expect(await erik.locator('.side-panel').evaluate((el) => el.getBoundingClientRect().width)).toBe(346);
    await erik.locator('.video-area').dblclick();
    await expect.poll(() => erik.locator('.side-tiles .tile').count()).toBe(0);
    await erik.getByRole('button', { name: 'Minimera Jonna Sökande' }).click();
    await expect.poll(() => erik.locator('.main-grid.grid-2 > .tile').count()).toBe(2);

    await erik.setViewportSize({ width: 800, height: 1000 });
    await expect.poll(labelWidth).toBeLessThanOrEqual(1);
    expect(await erik.getByRole('button', { name: 'Lägg på' }).count()).toBe(1); // icon-only, still named
    expect(await erik.locator('.conference-toolbar').isVisible()).toBe(true);

    await erik.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => erik.locator('.conference-toolbar').isVisible()).toBe(false);
    await erik.getByRole('button', { name: 'Maximera Jonna Sökande' }).click();
    await erik.locator('.video-area').dblclick();
    expect(await erik.locator('.side-tiles .tile').count()).toBe(0); // never minis on phones
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await erik.setViewportSize({ width: 1280, height: 800 });
    // Help popover.
    await erik.getByRole('button', { name: 'Fungerar det inte?' }).click();
    await expect.poll(() => erik.getByRole('dialog', { name: 'Fungerar det inte?' }).textContent()).toContain('Har du problem med mötet?');
    expect(await erik.getByRole('button', { name: 'Ladda om sidan' }).count()).toBe(1);
    await erik.keyboard.press('Escape');
    await expect.poll(() => erik.getByRole('dialog').count()).toBe(0);
  });

  it('shows a participant who denies camera and microphone the known error with the help link, dismissible', async () => {
    const denyingBrowser = await launchBrowser({ fakeUi: false });
    try {
      const { page } = await bench.newPage({ permissions: [] }, denyingBrowser);
      await loginAs(page, 'karin', '/meetings');
      await enter(page, meeting.id);
      const banner = page.locator('[data-error-key="OT_USER_MEDIA_ACCESS_DENIED"]');
      await expect.poll(() => banner.textContent()).toContain('Du behöver godkänna åtkomst till mikrofon och kamera för att kunna delta i mötet med ljud och bild.');
      expect(await banner.getAttribute('class')).toContain('error-banner--known');
      expect(await banner.getByRole('link', { name: 'Här kan du läsa mer om hur du gör detta.' }).getAttribute('href')).toBe('/usersupport/troubleshooting#user-media');
      // Still in the call as a receiver.
      await receivesMedia(page, 2);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await banner.getByRole('button', { name: 'Stäng' }).click();
      await expect.poll(() => banner.count()).toBe(0);
    } finally {
      await denyingBrowser.close();
    }
  });
});

describe('a Webcast', () => {
  it('a viewer receives the presenter and the server refuses its attempt to publish', async () => {
    const erik = await person('erik');
    const webcast = await book(erik, { type: 1, participants: [BOOKER_AS_PRESENTER] });
    // An anonymous visitor by the webcast's public link.
    const { page: jonna } = await bench.newPage();
    await jonna.goto('/personaldata');
    const joined = await apiCall(jonna, 'POST', `/api/publicaccess/${webcast.roomId}`, { displayName: 'Besökare' });
    expect(joined.status, joined.body).toBe(200);
    await enter(erik, webcast.id);
    await erik.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 15_000 });
    await enter(jonna, webcast.id, { visitor: true });
    await receivesMedia(jonna, 1);
    // No microphone or camera for a viewer, and 'Lämna samtalet' instead of 'Lägg på'.
    expect(await jonna.getByRole('button', { name: /mikrofon|kamera/ }).count()).toBe(0);
    expect(await jonna.getByRole('button', { name: 'Lämna samtalet' }).count()).toBe(1);
    expect(await seriousAxeViolations(jonna)).toEqual([]);
    // Whatever the viewer's client sends, the relay refuses publishing.
    const { joined: refused } = await rawPublishAttempt(jonna, { meetingId: webcast.id, displayName: 'x' });
    expect(refused).toMatchObject({ janus: 'error', error: { code: 403, reason: expect.stringContaining('no publish capability') } });

    // The presenter (the webcast's admin) hangs up: the participant count is saved, rate-call is raised, back to '/'.
    await expect.poll(() => status(erik).textContent()).toBe('2 personer deltar i mötet');
    await erik.evaluate(() =>
      window.addEventListener('rate-call', (e) => ((window as unknown as { __rated?: string }).__rated = (e as CustomEvent<{ meetingId: string }>).detail.meetingId)),
    );
    await erik.getByRole('button', { name: 'Lägg på' }).click();
    await expect.poll(() => new URL(erik.url()).pathname).not.toContain('/conference');
    expect(await erik.evaluate(() => (window as unknown as { __rated?: string }).__rated)).toBe(webcast.id);
    expect(await erik.evaluate(() => localStorage.getItem('meeting_participant_count'))).toBeNull();
    // The viewer, now alone, reads 'Ingen annan är ansluten till mötet' once (the status line), and the centre
    // says that nobody sends video (spec §2's 'no streams' status).
    const alone = 'Ingen annan är ansluten till mötet';
    await expect.poll(() => status(jonna).textContent(), { timeout: 15_000 }).toBe(alone);
    const shown = (page: Page, text: string) =>
      page.evaluate((t) => Array.from(document.querySelectorAll('p')).filter((p) => p.textContent === t && p.getBoundingClientRect().width > 2).length, text);
    await expect.poll(() => shown(jonna, alone)).toBe(1);
    await expect.poll(() => shown(jonna, 'Ingen sänder video just nu')).toBe(1);
    expect(await seriousAxeViolations(jonna)).toEqual([]);
    const saved = await erik.evaluate(async (id) => (await (await fetch(`/api/meeting/${id}`)).json()).data.countInfoParticipants as number, webcast.id);
    // The highest count seen: presenter and viewer page, plus the viewer's short-lived probing socket above if the
    // presenter's page rendered it.
    expect([2, 3]).toContain(saved);
  });

  it('a stranger gets no token and no media connection', async () => {
    const [erik, fredrik] = await Promise.all([person('erik'), person('fredrik')]);
    const m = await book(erik, { participants: [BOOKER_AS_OFFICER] });
    await fredrik.goto(`/meetings/${m.id}/conference`);
    // Like the lobby: straight to the error page that says why, no 'Anslutning misslyckades' and no retries.
    await expect.poll(() => new URL(fredrik.url()).pathname + new URL(fredrik.url()).search, { timeout: 15_000 }).toBe('/error?status=403');
    await expect.poll(() => fredrik.getByText('Felkod: 403').count()).toBe(1);
    expect(await fredrik.getByText('Anslutning misslyckades').count()).toBe(0);
    expect(await seriousAxeViolations(fredrik)).toEqual([]);
    const opened = await fredrik.evaluate(async (meetingId) => {
      const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/media/${meetingId}?token=forged.token`, 'janus-protocol');
      return new Promise<boolean>((resolve) => {
        ws.onopen = () => resolve(true);
        ws.onerror = () => resolve(false);
      });
    }, m.id);
    expect(opened).toBe(false);
  });
});
