import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, book, CallBench, enter, status } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { BOOKER_AS_OFFICER, JONNA_BY_PIN } from './support/booking.ts';
import { loginAs } from './support/login.ts';

// The call as a user meets it: the lobby's consent held by the server (a bookmark cannot skip it), a status that
// never says the connection failed before it was tried, 'Ingen sänder video just nu', a phone in portrait (390×844,
// touch, no screen capture) with the two people one above the other, and Grupper's ScreenShare switched off for staff.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 250 } } });

const bench = new CallBench();
let erik: Page;
let jonna: Page;
let meeting: { id: string };

/** Every text the call status line shows, from the document's start. */
const recordStatuses = (page: Page) =>
  page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __statuses: string[] }).__statuses = seen;
    new MutationObserver(() => {
      const text = document.querySelector('.call-status')?.textContent ?? '';
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
const statusesOf = (page: Page) => page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);

beforeAll(async () => {
  await bench.start();
  // Grupper: staff without ScreenShare, before Erik logs in (a login reads the grants).
  const anna = await bench.person('anna');
  const off = await apiCall(anna, 'PUT', '/api/admin/groups', { grants: [{ role: 'VIDMedarbetare', features: ['EditMeeting', 'InternalMeeting'], isAdmin: false }] });
  expect(off.status, off.body).toBe(200);
  erik = await bench.person('erik');
  await recordStatuses(erik);
  // A phone in portrait: touch, and no screen capture (mobile browsers have no getDisplayMedia).
  ({ page: jonna } = await bench.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true }));
  await jonna.addInitScript(() => {
    delete (MediaDevices.prototype as { getDisplayMedia?: unknown }).getDisplayMedia;
  });
  await recordStatuses(jonna);
  await loginAs(jonna, 'jonna');
  meeting = await book(erik, { participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN] });
}, 300_000);
afterAll(async () => bench.stop());

describe('the call on a phone', () => {
  it('holds the lobby\'s consent, never shows a failure before trying, stacks two people on a phone, offers no screen share it cannot do, and says when nobody sends video', async () => {
    // A bookmark straight to the call: the server refuses the media token, the page says why and leads to the lobby.
    await jonna.goto(`/meetings/${meeting.id}/conference?vmtest=1`);
    const refusal = jonna.getByRole('alert').filter({ hasText: 'Du behöver intyga att du förstår hanteringen av personuppgifter' });
    await refusal.waitFor({ timeout: 60_000 });
    await jonna.screenshot({ path: '/tmp/usability-consent-missing.png' });
    expect(await seriousAxeViolations(jonna)).toEqual([]);
    await refusal.getByRole('link', { name: 'Till mötets förberedelser' }).click();
    await jonna.waitForURL((url) => url.pathname === `/meetings/${meeting.id}/lobby`);
    await jonna.getByRole('checkbox', { name: 'Jag intygar att jag förstår hanteringen av personuppgifter' }).check();
    await jonna.getByRole('button', { name: 'Anslut till mötet' }).click();
    await jonna.waitForURL((url) => url.pathname === `/meetings/${meeting.id}/conference`);
    await expect
      .poll(() => jonna.locator('.conference').getAttribute('data-connection-status', { timeout: 1_000 }).catch(() => 'absent'), { timeout: 60_000 })
      .toBe('connected');
    await enter(erik, meeting.id);
    for (const p of [erik, jonna]) await expect.poll(() => status(p).textContent(), { timeout: 60_000 }).toBe('2 personer deltar i mötet');
    for (const p of [erik, jonna]) expect(await statusesOf(p)).not.toContain('Anslutning misslyckades');
    expect(await statusesOf(jonna)).toContain('Ansluter...');
    // Cameras start off (audio first); both switch theirs on.
    for (const p of [erik, jonna]) await p.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 30_000 });

    // Portrait phone: the two tiles one above the other, each the screen's width, near the video's 16:9.
    const tiles = jonna.locator('.main-grid > .tile');
    await expect.poll(() => tiles.count()).toBe(2);
    await expect.poll(() => jonna.locator('.main-grid > .tile[data-has-video="true"]').count()).toBe(2);
    const [a, b] = [(await tiles.nth(0).boundingBox())!, (await tiles.nth(1).boundingBox())!];
    expect(Math.abs(a.x - b.x)).toBeLessThanOrEqual(1);
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.height - 1);
    for (const box of [a, b]) {
      expect(box.width).toBeGreaterThanOrEqual(300);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.width / box.height).toBeGreaterThan(1.6);
      expect(box.width / box.height).toBeLessThan(1.9);
    }
    await jonna.screenshot({ path: '/tmp/usability-phone-portrait.png' });

    // No 'Dela skärm' where it cannot work: no screen capture on the phone; no ScreenShare feature for Erik.
    expect(await jonna.getByRole('button', { name: 'Dela skärm' }).count()).toBe(0);
    expect(await erik.evaluate(() => typeof navigator.mediaDevices.getDisplayMedia)).toBe('function');
    expect(await erik.getByRole('button', { name: 'Dela skärm' }).count()).toBe(0);
    expect(await erik.getByRole('button', { name: 'Stäng av din kamera' }).count()).toBe(1);

    // Both cameras off: nobody sends video, and the call says so.
    for (const p of [erik, jonna]) await p.getByRole('button', { name: 'Stäng av din kamera' }).click();
    for (const p of [erik, jonna]) await expect.poll(() => p.getByText('Ingen sänder video just nu').count()).toBe(1);
    await jonna.screenshot({ path: '/tmp/usability-no-video.png' });
    expect(await seriousAxeViolations(jonna)).toEqual([]);
    await erik.getByRole('button', { name: 'Slå på din kamera' }).click();
    await expect.poll(() => jonna.getByText('Ingen sänder video just nu').count()).toBe(0);
  }, 300_000);
});
