import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CallBench } from './support/call.ts';
import { expectAxeClean } from './support/axe.ts';
import { tomorrow, TOLK_PIN } from './support/booking.ts';
import { arrowToOption, expectVisibleFocus, focused, tabTo } from './support/keyboard.ts';

// Booking with the keyboard alone. After the login (the IdP is not ours to test here) every step is
// page.keyboard: Tab, Shift+Tab, Enter, Space, arrows and typed text; no click, no fill, no pointer.

const bench = new CallBench();
beforeAll(() => bench.start(), 300_000);
afterAll(() => bench.stop());

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
/**
 * After a navigation inside the app the shell moves focus to the new page's heading, so a keyboard user starts at
 * the top of what changed. It does so in an effect after the page is painted: Tab only after it has happened.
 */
async function arrivedAt(page: Page, name: string) {
  await heading(page, name);
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent)).toBe(name);
}
const valueOf = (page: Page, id: string) => page.evaluate((i) => (document.getElementById(i) as HTMLInputElement).value, id);
const summaryLinks = (page: Page) => page.locator('.vm-error-summary a').allTextContents();

/** Adds a participant card by keyboard: the button, a role by arrows, name, personnummer, 'Spara deltagare'. */
async function addByKeyboard(page: Page, index: number, role: string, name: string, pin: string) {
  await tabTo(page, 'Lägg till deltagare');
  await page.keyboard.press('Enter');
  // The new card's role select takes focus by itself.
  await expect.poll(async () => (await focused(page)).id).toBe(`participant-${index}-role`);
  await expectVisibleFocus(page, 'role select of the new card');
  await arrowToOption(page, role);
  await tabTo(page, `participant-${index}-displayName`);
  await page.keyboard.type(name);
  await tabTo(page, `participant-${index}-pin`);
  await page.keyboard.type(pin);
  await tabTo(page, 'Spara deltagare');
  await page.keyboard.press('Space');
  await page.getByRole('heading', { level: 3, name }).waitFor();
  // Focus lands on the saved card, so the next Tab goes on from there.
  await expect.poll(async () => (await focused(page)).id).toBe(`participant-${index}`);
}

describe('keyboard-only booking', () => {
  it('Erik books a meeting with a job seeker and an interpreter from /meetings to Mötet är sparat by keyboard alone', async () => {
    const page = await bench.person('erik');
    await heading(page, 'Välkommen Erik Handläggare');
    await expectAxeClean(page, 'home');

    await tabTo(page, 'Skapa videomöte');
    await page.keyboard.press('Enter');
    await arrivedAt(page, 'Skapa videomöte');
    await expectAxeClean(page, 'create form');

    // Empty submit: the summary takes focus; Enter on a link moves focus to its field.
    await tabTo(page, 'Spara videomöte');
    await page.keyboard.press('Enter');
    await page.locator('.vm-error-summary').waitFor();
    await expect.poll(async () => (await focused(page)).path).toMatch(/vm-error-summary$/);
    await expectVisibleFocus(page, 'error summary');
    expect(await summaryLinks(page)).toEqual(['Rubrik', 'Datum', 'Starttid', 'Sluttid']);
    await expectAxeClean(page, 'create form with errors');
    await tabTo(page, 'Starttid', { max: 6 });
    await page.keyboard.press('Enter');
    expect((await expectVisibleFocus(page, 'Starttid after the summary link')).id).toBe('startTime');

    // Back to Rubrik, then the fields in order; the date is typed as digits only and is not a real date first.
    await tabTo(page, 'title', { back: true, max: 4 });
    await page.keyboard.type('Samtal med tangentbord');
    await tabTo(page, 'date', { max: 2 });
    await page.keyboard.type('20270230');
    await tabTo(page, 'startTime', { max: 2 });
    expect(await valueOf(page, 'date')).toBe('20270230'); // unreadable stays as typed
    await page.keyboard.type('930');
    await tabTo(page, 'endTime', { max: 2 });
    expect(await valueOf(page, 'startTime')).toBe('09:30');
    await page.keyboard.type('10.15');
    // Enter in a field submits; the time typed there is read without a blur.
    await page.keyboard.press('Enter');
    await expect.poll(() => summaryLinks(page)).toEqual(['Datum: Ange datum som åååå-mm-dd']);
    expect(await valueOf(page, 'endTime')).toBe('10:15');
    await expect.poll(async () => (await focused(page)).path).toMatch(/vm-error-summary$/);
    await expectAxeClean(page, 'create form with a date that does not exist');
    await tabTo(page, 'Datum: Ange datum som åååå-mm-dd', { max: 3 });
    await page.keyboard.press('Enter');
    expect((await expectVisibleFocus(page, 'Datum after the summary link')).id).toBe('date');
    expect(await page.locator('#date').getAttribute('aria-describedby')).toBe('date-hint date-error');
    expect(await page.locator('#date-hint').textContent()).toBe('åååå-mm-dd');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(tomorrow().replaceAll('-', ''));
    await page.keyboard.press('Tab');
    expect(await valueOf(page, 'date')).toBe(tomorrow());

    await addByKeyboard(page, 1, 'Arbetssökande', 'Jonna Sökande', '19900101-2385');
    await addByKeyboard(page, 2, 'Tolk', 'Tolk Tolksson', TOLK_PIN);
    await expectAxeClean(page, 'form with two saved cards');

    await tabTo(page, 'Spara videomöte');
    await page.keyboard.press('Enter');
    await arrivedAt(page, 'Mötet är sparat');
    await expectAxeClean(page, 'saved page');
    expect(page.url()).toMatch(/\/meetings\/[0-9a-f-]{36}\/saved$/);

    // What was saved is what was typed, in Swedish format.
    await tabTo(page, 'Dina videomöten');
    await page.keyboard.press('Enter');
    await arrivedAt(page, 'Välkommen Erik Handläggare');
    const card = page.getByRole('listitem', { name: 'Samtal med tangentbord', exact: true });
    await tabTo(page, (f) => f.name.startsWith('Samtal med tangentbord'));
    await page.keyboard.press('Enter');
    expect(await card.locator('.vm-card__toggle').getAttribute('aria-expanded')).toBe('true');
    expect(await card.locator('.vm-card__time').textContent()).toMatch(new RegExp(`^\\p{L}+ ${tomorrow()}, 09:30–10:15, Videomöte$`, 'u'));
    await card.getByRole('heading', { name: 'Deltagare (2)' }).waitFor();
    await expectAxeClean(page, 'home with the new meeting open');
  });
});
