import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser } from './support/browser.ts';
import { useBench } from './support/bench.ts';
import { BOOKER_AS_OFFICER, BOOKER_AS_PRESENTER, bookTomorrow, JONNA_BY_PIN } from './support/booking.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { apiCall } from './support/call.ts';

const level = (page: Page) => page.evaluate(() => Number(document.querySelector('[role="meter"]')?.getAttribute('data-level') ?? -1));

let meetingId = '';
let webcastId = '';

const bench = useBench();
beforeAll(async () => {
  const erik = await bench.person('erik');
  meetingId = await bookTomorrow(erik, { title: 'Lobbytest', type: 0, participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN] });
  webcastId = await bookTomorrow(erik, { title: 'Lobbytest', type: 1, participants: [BOOKER_AS_PRESENTER] });
  await bench.closePages();
});

describe('lobby with fake camera and microphone', () => {
  it('previews the camera, moves the level bar, lists the devices, remembers choices and requires consent', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'erik', `/meetings/${meetingId}/lobby`);
    await page.getByRole('heading', { level: 1, name: 'Till Mötet' }).waitFor();
    await page.getByRole('button', { name: 'Tillbaka till startsidan' }).waitFor();

    const camera = page.getByRole('combobox', { name: 'Kamera' });
    const microphone = page.getByRole('combobox', { name: 'Mikrofon' });
    await page.waitForFunction(() => ((document.querySelector("video") as HTMLVideoElement | null)?.videoWidth ?? 0) > 0, undefined, { timeout: 20_000 });
    const cameraOptions = await camera.locator('option').allTextContents();
    const micOptions = await microphone.locator('option').allTextContents();
    expect(cameraOptions[0]).toBe('- Ingen kamera vald -');
    expect(micOptions[0]).toBe('- Ingen mikrofon vald -');
    expect(cameraOptions.length).toBeGreaterThan(1);
    expect(micOptions.length).toBeGreaterThan(1);
    expect(cameraOptions.slice(1).join()).toMatch(/fake/i);

    await page.waitForFunction(() => Number(document.querySelector('[role="meter"]')?.getAttribute('data-level')) > 0, undefined, { timeout: 20_000 });
    await page.getByText('Mikrofonen fungerar.').waitFor();
    expect(await page.getByText('Hantering av personuppgifter').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Så här hanterar vi personuppgifter i Videomöte' }).getAttribute('href')).toBe('/personaldata');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // 'None' stops the stream; a device choice is remembered by label for the conference.
    await camera.selectOption('');
    await page.waitForFunction(() => !document.querySelector('video'));
    expect(await page.evaluate(() => localStorage.getItem('video_device'))).toBeNull();
    await camera.selectOption({ index: 1 });
    await page.waitForFunction(() => ((document.querySelector("video") as HTMLVideoElement | null)?.videoWidth ?? 0) > 0);
    expect(await page.evaluate(() => localStorage.getItem('video_device'))).toBe(JSON.stringify(cameraOptions[1]));
    await microphone.selectOption('');
    await page.waitForFunction(() => document.querySelector('[role="meter"]')?.getAttribute('data-level') === '0');
    expect(await level(page)).toBe(0);
    await microphone.selectOption({ index: 1 });
    expect(await page.evaluate(() => localStorage.getItem('audio_device'))).toBe(JSON.stringify(micOptions[1]));

    // The meeting screen's code was fetched in the background while the lobby showed (app/router.tsx).
    const conferenceChunkFetched = () => performance.getEntriesByType('resource').some((e) => /\/assets\/conference-page-[^/]+\.js$/.test(e.name));
    await page.waitForFunction(conferenceChunkFetched, undefined, { timeout: 10_000 });

    await page.getByRole('button', { name: 'Anslut till mötet' }).click();
    await page.getByRole('alert').filter({ hasText: 'Du måste intyga att du förstår hanteringen av personuppgifter' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/meetings/${meetingId}/lobby`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Ticking the box gives the consent there and then (the media token is asked for with it); unticking withdraws
    // it, so the meeting screen opened another way would refuse the token; ticked again, it is given again.
    const box = page.getByRole('checkbox', { name: 'Jag intygar att jag förstår hanteringen av personuppgifter' });
    const tokenStatus = async () => (await apiCall(page, 'POST', '/api/meeting/gettoken', { meetingId })).status;
    await box.check();
    await expect.poll(tokenStatus, { timeout: 15_000, interval: 250 }).toBe(200);
    await box.uncheck();
    await expect.poll(tokenStatus, { timeout: 15_000, interval: 250 }).toBe(403);
    await box.check();
    await expect.poll(tokenStatus, { timeout: 15_000, interval: 250 }).toBe(200);
    await page.getByRole('button', { name: 'Anslut till mötet' }).click();
    await page.waitForURL((url) => url.pathname === `/meetings/${meetingId}/conference`);
    await context.close();
  });

  it('heads a webcast lobby Till Informationsmötet with the information-meeting text', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'erik', `/meetings/${webcastId}/lobby`);
    await page.getByRole('heading', { level: 1, name: 'Till Informationsmötet' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Om informationsmötet' }).waitFor();
    expect(await page.getByText('Det här är ett informationsmöte.').count()).toBe(1);
    await context.close();
  });

  it('lets only participants in: another person does not reach the device test', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'karin', `/meetings/${meetingId}/lobby`);
    await page.waitForFunction(() => location.pathname === '/error' || !!document.querySelector('[role="alert"]'), undefined, { timeout: 20_000 });
    expect(await page.locator('video').count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Kamera' }).count()).toBe(0);
    await context.close();
  });
});

describe('lobby with camera and microphone denied', () => {
  it('shows the Swedish denied text with the troubleshooting link', async () => {
    const denying = await launchBrowser({ fakeUi: false });
    try {
      const { page } = await bench.newPage({ permissions: [] }, denying);
      await loginAs(page, 'erik', `/meetings/${meetingId}/lobby`);
      const denied = page.getByText(
        'Vi kan inte komma åt din kamera och mikrofon. Klicka på hänglåset/Infoikonen i adressfältet och tillåt kamera och mikrofon.',
      );
      await denied.waitFor({ timeout: 20_000 });
      const link = page.getByRole('link', { name: /Läs mer om problem med kamera och mikrofon/ });
      expect(await link.getAttribute('href')).toBe('/usersupport/troubleshooting#user-media');
      expect(await page.locator('video').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await denying.close();
    }
  });
});
