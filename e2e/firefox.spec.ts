import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import type { Browser as Firefox, Page as FirefoxPage } from 'puppeteer-core';
import { useBench } from './support/bench.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { enter, status } from './support/call.ts';
import { aria, count, firefoxAxeViolations, firefoxLoginAs, firefoxMediaTotals, launchFirefox, newFirefoxPage, pathOf } from './support/firefox.ts';
import { mediaKeepsFlowing, mediaTotalsInPage, RECORD_PEER_CONNECTIONS } from './support/peer-connections.ts';
import { ERIK_WITH_JONNA, seededDataDir, underWayNow } from './support/seed.ts';

// Firefox ESR (Debian's, unmodified, through puppeteer-core over WebDriver BiDi) in calls with Chromium, through the
// real server and the embedded Janus, in the test's network namespace. What is read is what a person would notice:
// the DOM, and media counters from getStats on every peer connection the page made.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 250 } } });

const ids = { meeting: '', webcast: '', webcastRoom: '' };
const bench = useBench(() =>
  seededDataDir(async (insert) => {
    const meeting = await insert({ title: 'Samtal i Firefox', type: 0, ...underWayNow(), participants: ERIK_WITH_JONNA });
    const webcast = await insert({
      title: 'Informationsmöte i Firefox',
      type: 1,
      ...underWayNow(),
      participants: [{ persona: 'erik', role: 'PresenterInternal', isAdmin: true }],
    });
    Object.assign(ids, { meeting: meeting.id, webcast: webcast.id, webcastRoom: webcast.roomId });
  }),
);

let firefox: Firefox;
beforeAll(async () => {
  firefox = await launchFirefox();
});
afterAll(async () => {
  await firefox?.close();
});

/** Erik in Chromium, in the call with his camera and microphone on, his peer connections recorded. */
async function erikInCall(meetingId: string): Promise<Page> {
  const erik = await bench.person('erik');
  await erik.context().addInitScript(RECORD_PEER_CONNECTIONS);
  await enter(erik, meetingId);
  await erik.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 30_000 });
  await expect.poll(() => erik.getByRole('button', { name: 'Stäng av din kamera' }).count()).toBe(1);
  return erik;
}

async function connected(page: FirefoxPage): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.querySelector('.conference')?.getAttribute('data-connection-status') ?? 'absent'), { timeout: 60_000 })
    .toBe('connected');
}

/** Whether the tile named `name` plays video: its <video> has a picture of some size. */
const tilePlaysVideo = (page: FirefoxPage, name: string) =>
  page.evaluate((who) => {
    const tile = Array.from(document.querySelectorAll('.tile')).find((t) => t.querySelector('figcaption')?.textContent?.includes(who));
    const video = tile?.querySelector('video');
    return Boolean(video && video.videoWidth > 0 && !video.paused);
  }, name);

describe('Firefox ESR', () => {
  it('a visitor of a webcast in Firefox receives the presenter (Chromium) and chats with him', async () => {
    const erik = await erikInCall(ids.webcast);
    const { context, page } = await newFirefoxPage(firefox);
    await page.goto(`${bench.server.url}/publicaccess/${ids.webcastRoom}`);
    await page.locator(aria('Välkommen till informationsmötet', 'heading')).wait();
    await page.locator(aria('Ange namn', 'textbox')).fill('Sara');
    await page.locator(aria('Anslut till mötet', 'button')).click();
    await expect.poll(() => pathOf(page)).toBe(`/meetings/${ids.webcast}/conference`);
    await connected(page);

    // The presenter's camera and microphone reach the visitor; the visitor sends nothing.
    const totals = await mediaKeepsFlowing(() => firefoxMediaTotals(page), { send: false, videoStreams: 1 });
    expect(totals.framesEncoded + totals.audioPacketsSent).toBe(0);
    await expect.poll(() => tilePlaysVideo(page, 'Erik Handläggare')).toBe(true);
    expect(await count(page, aria('Lämna samtalet', 'button'))).toBe(1);
    expect(await count(page, aria('Slå på din kamera', 'button'))).toBe(0);

    // A chat message from the visitor reaches the presenter.
    await page.locator(aria('Chatt', 'button')).click();
    await page.locator(aria('Skriv ett meddelande', 'textbox')).fill('Hej från Firefox');
    await page.locator(aria('Skicka', 'button')).click();
    await erik.getByRole('button', { name: /^Chatt/ }).click();
    await expect.poll(() => erik.getByRole('log', { name: 'Chattmeddelanden' }).locator('.chat-bubble', { hasText: 'Hej från Firefox' }).count()).toBe(1);
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await context.close();
    await bench.closePages();
  }, 180_000);

  it('a meeting Firefox ↔ Chromium: lobby, two-way video and audio, chat, hands, screen share, settings, leaving and rating', async () => {
    const erik = await erikInCall(ids.meeting);
    const { context, page: jonna } = await newFirefoxPage(firefox);
    await firefoxLoginAs(jonna, bench.server.url, 'jonna', `/meetings/${ids.meeting}/lobby`);

    // The lobby's device test with Firefox's fake camera and microphone: the preview plays, the level moves.
    await jonna.locator(aria('Till Mötet', 'heading')).wait();
    await expect.poll(() => jonna.evaluate(() => (document.querySelector('video')?.videoWidth ?? 0) > 0)).toBe(true);
    await expect.poll(() => jonna.evaluate(() => Number(document.querySelector('[role="meter"]')?.getAttribute('data-level') ?? 0) > 0)).toBe(true);
    const optionsOf = (name: string) => jonna.$eval(aria(name, 'combobox'), (s) => Array.from((s as HTMLSelectElement).options).map((o) => o.textContent));
    expect((await optionsOf('Kamera')).length).toBeGreaterThan(1);
    expect((await optionsOf('Mikrofon')).length).toBeGreaterThan(1);
    expect(await firefoxAxeViolations(jonna)).toEqual([]);
    // Consent first: without it the lobby says so and stays.
    await jonna.locator(aria('Anslut till mötet', 'button')).click();
    await jonna.locator('::-p-text(Du måste intyga att du förstår hanteringen av personuppgifter)').wait();
    expect(pathOf(jonna)).toBe(`/meetings/${ids.meeting}/lobby`);
    await jonna.locator(aria('Jag intygar att jag förstår hanteringen av personuppgifter', 'checkbox')).click();
    await jonna.locator(aria('Anslut till mötet', 'button')).click();
    await expect.poll(() => pathOf(jonna)).toBe(`/meetings/${ids.meeting}/conference`);
    await connected(jonna);

    // Camera on: video and audio both ways through Janus, read from getStats on both sides.
    await jonna.locator(aria('Slå på din kamera', 'button')).click();
    await jonna.locator(aria('Stäng av din kamera', 'button')).wait();
    await mediaKeepsFlowing(() => firefoxMediaTotals(jonna), { send: true, videoStreams: 1 });
    await mediaKeepsFlowing(() => erik.evaluate(mediaTotalsInPage), { send: true, videoStreams: 1 });
    await expect.poll(() => tilePlaysVideo(jonna, 'Erik Handläggare')).toBe(true);
    await expect.poll(() => erik.locator('.tile[data-has-video="true"] figcaption', { hasText: 'Jonna Sökande' }).count()).toBe(1);
    for (const text of [await jonna.$eval('.call-status', (e) => e.textContent), await status(erik).textContent()]) expect(text).toBe('2 personer deltar i mötet');
    // Firefox has no insertable streams for the camera: background blur is not offered there.
    expect(await count(jonna, aria('Suddig bakgrund', 'button'))).toBe(0);
    expect(await firefoxAxeViolations(jonna)).toEqual([]);

    // A chat message each way.
    await jonna.locator(aria('Chatt', 'button')).click();
    await jonna.locator(aria('Skriv ett meddelande', 'textbox')).fill('Hej från Firefox');
    await jonna.locator(aria('Skicka', 'button')).click();
    await erik.getByRole('button', { name: /^Chatt/ }).click();
    const erikLog = erik.getByRole('log', { name: 'Chattmeddelanden' });
    await expect.poll(() => erikLog.locator('.chat-bubble', { hasText: 'Hej från Firefox' }).locator('.chat-bubble__name').textContent()).toBe('Jonna Sökande');
    await erik.getByRole('region', { name: 'Chatt' }).getByRole('textbox', { name: 'Skriv ett meddelande' }).fill('Hej från Chromium');
    await erik.getByRole('region', { name: 'Chatt' }).getByRole('button', { name: 'Skicka' }).click();
    await expect.poll(() => jonna.$$eval('.chat-bubble', (bs) => bs.map((b) => b.textContent ?? '').filter((t) => t.includes('Hej från Chromium')).length)).toBe(1);
    expect(await firefoxAxeViolations(jonna)).toEqual([]);

    // The participants panel and a raised hand, which the moderator sees in his queue.
    await jonna.locator(aria('Deltagare', 'button')).click();
    await expect.poll(() => jonna.$$eval('.participants-row', (rows) => rows.map((r) => r.textContent ?? '').some((t) => t.includes('Erik Handläggare')))).toBe(true);
    await jonna.locator(aria('Räck upp handen', 'button')).click();
    await erik.getByRole('button', { name: 'Deltagare', exact: true }).click();
    await expect.poll(() => erik.locator('.hand-queue__name').allTextContents()).toEqual(['Jonna Sökande']);
    expect(await jonna.$eval(aria('Sänk handen', 'button'), (b) => b.getAttribute('aria-pressed'))).toBe('true');
    expect(await firefoxAxeViolations(jonna)).toEqual([]);

    // Erik shares his screen: Firefox shows who shares and decodes the share beside his camera.
    await erik.getByRole('button', { name: 'Dela skärm' }).click();
    await expect.poll(() => jonna.$eval('.conference-toolbar', (e) => e.textContent ?? '')).toContain('Erik Handläggare delar skärm');
    await mediaKeepsFlowing(() => firefoxMediaTotals(jonna), { send: true, videoStreams: 2 });
    await expect.poll(() => jonna.evaluate(() => (document.querySelector<HTMLVideoElement>('.tile[data-stream-id^="screen-"] video')?.videoWidth ?? 0) > 0)).toBe(true);
    await erik.getByRole('button', { name: 'Avsluta skärmdelning' }).click();
    await expect.poll(() => jonna.$eval('.conference-toolbar', (e) => e.textContent ?? '')).not.toContain('delar skärm');
    // Jonna has ScreenShare, as every group has by default (Grupper): Firefox, which can capture a screen, offers her
    // 'Dela skärm'. (Headless Firefox has no screen to capture: getDisplayMedia would fail with NotFoundError.)
    expect(await jonna.evaluate(() => typeof navigator.mediaDevices.getDisplayMedia)).toBe('function');
    expect(await jonna.$$eval(aria('Dela skärm', 'button'), (buttons) => buttons.length)).toBe(1);
    await mediaKeepsFlowing(() => erik.evaluate(mediaTotalsInPage), { send: true, videoStreams: 1 });

    // The settings dialog lists Firefox's devices.
    await jonna.locator(aria('Inställningar', 'button')).click();
    await jonna.locator(aria('Inställningar för ljud och bild', 'dialog')).wait();
    expect((await optionsOf('Välj videokälla')).length).toBeGreaterThan(0);
    expect((await optionsOf('Välj ljudkälla')).length).toBeGreaterThan(0);
    expect(await firefoxAxeViolations(jonna)).toEqual([]);
    await jonna.locator(aria('Stäng', 'button')).click();
    await expect.poll(() => count(jonna, aria('Inställningar för ljud och bild', 'dialog'))).toBe(0);

    // Leaving: the call ends for Erik's view, and Firefox asks for a rating, which is sent.
    await jonna.locator(aria('Lägg på', 'button')).click();
    await jonna.locator(aria('Hur var samtalet?', 'dialog')).wait();
    expect(await firefoxAxeViolations(jonna)).toEqual([]);
    await jonna.locator(aria('5 Mycket bra', 'radio')).click();
    await jonna.locator(aria('Skicka', 'button')).click();
    await expect.poll(() => count(jonna, aria('Hur var samtalet?', 'dialog'))).toBe(0);
    await expect.poll(() => status(erik).textContent()).toBe('Ingen annan är ansluten till mötet');
    await context.close();
    await bench.closePages();
  }, 240_000);
});
