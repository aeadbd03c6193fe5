import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { BOOKER_AS_OFFICER, BOOKER_AS_PRESENTER, JONNA_BY_PIN } from './support/booking.ts';
import { book } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { screenshot } from './support/screenshots.ts';

/**
 * The job seeker's own language: the external screens in Arabic (right to left) and English, chosen from the
 * browser's language on the first visit and in the header, remembered, each axe-clean; the conference's control bar
 * mirrored in Arabic. Screenshots go to E2E_SCREENSHOTS when it is set (to look at them).
 */

const documentLanguage = (page: Page) => page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

/** The left edges of the control bar's buttons, in the order they stand in the document. */
const buttonLefts = (bar: Locator) => bar.locator('button').evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().left)));

const increasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!);
const decreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x < xs[i - 1]!);

let meetingId = '';
let webcastRoom = '';

const bench = useBench();
beforeAll(async () => {
  const erik = await bench.person('erik');
  meetingId = (await book(erik, { title: 'Språktest', type: 0, participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN] })).id;
  webcastRoom = (await book(erik, { title: 'Språktest', type: 1, participants: [BOOKER_AS_PRESENTER] })).roomId;
  await bench.closePages();
});

describe('the external screens in the job seeker’s own language', () => {
  it('lobby and conference: Arabic from the browser, right to left with the control bar mirrored, then English chosen and kept', async () => {
    const { page } = await bench.newPage({ locale: 'ar-SE' });
    await loginAs(page, 'jonna', `/meetings/${meetingId}/lobby`);

    // First visit: the browser's language (ar-SE) is offered, the document runs right to left.
    await page.getByRole('heading', { level: 1, name: 'إلى الاجتماع' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    await page.waitForFunction(() => ((document.querySelector('video') as HTMLVideoElement | null)?.videoWidth ?? 0) > 0, undefined, { timeout: 20_000 });
    expect(await page.getByRole('combobox', { name: 'الكاميرا' }).locator('option').first().textContent()).toBe('- لم يتم اختيار كاميرا -');
    // Right to left: the heading's text ends at the right edge of its box, not the left.
    const heading = await page.getByRole('heading', { level: 1 }).evaluate((h) => getComputedStyle(h).direction);
    expect(heading).toBe('rtl');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'languages-lobby-ar');

    // English from the header's language choice.
    await page.getByRole('combobox', { name: 'اللغة' }).selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'To the meeting' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'en', dir: 'ltr' });
    await page.getByRole('button', { name: 'Join the meeting' }).click();
    await page.getByRole('alert').filter({ hasText: 'You must confirm that you understand how your personal data is handled' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Back to Arabic, consent and into the call.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await page.getByRole('checkbox', { name: 'أؤكد أنني أفهم كيف يتم التعامل مع البيانات الشخصية' }).check();
    await page.getByRole('button', { name: 'انضم إلى الاجتماع' }).click();
    await page.waitForURL((url) => url.pathname === `/meetings/${meetingId}/conference`);
    const bar = page.locator('.control-bar');
    await bar.getByRole('button', { name: /الميكروفون/ }).waitFor({ timeout: 60_000 });
    expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(await bar.getAttribute('aria-label')).toBe('أزرار المكالمة');
    expect(await page.title()).toBe('Videomöte - اجتماع جارٍ');
    await page.locator('.call-status').filter({ hasText: 'لا أحد غيرك متصل بالاجتماع' }).waitFor({ timeout: 30_000 });
    const ownTile = page.locator('.tile--own');
    const ownPin = (label: string) => ownTile.getByRole('button', { name: new RegExp(`^${label} `) });
    await ownPin('تثبيت').waitFor({ timeout: 30_000 });
    // The blur toggle comes once the browser has been found able to blur, after which the own tile has nothing left to change.
    await ownTile.getByRole('button', { name: 'خلفية ضبابية' }).waitFor({ timeout: 30_000 });
    const labels = (await bar.getByRole('button').allTextContents()).join(' | ');
    for (const label of ['الميكروفون', 'الكاميرا', 'الدردشة', 'المشاركون', 'إنهاء المكالمة']) expect(labels).toContain(label);
    // Mirrored: the microphone, first in the document, stands rightmost and 'hang up' leftmost.
    const arabic = await buttonLefts(bar);
    expect(arabic.length).toBeGreaterThanOrEqual(5);
    expect(decreasing(arabic)).toBe(true);
    // The toolbar too: the help button (first) at the right end, the language choice towards the left.
    const helpX = await page.locator('.conference-toolbar .help__toggle').evaluate((e) => e.getBoundingClientRect().left);
    const languageX = await page.locator('.conference-toolbar .language-switcher').evaluate((e) => e.getBoundingClientRect().left);
    expect(helpX).toBeGreaterThan(languageX);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'languages-conference-ar');

    // English in the call's toolbar: the same bar, left to right.
    await page.locator('.conference-toolbar').getByRole('combobox', { name: 'اللغة' }).selectOption('en');
    await bar.getByRole('button', { name: /your microphone/ }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'en', dir: 'ltr' });
    expect(await bar.getAttribute('aria-label')).toBe('Call buttons');
    const english = await buttonLefts(bar);
    expect(increasing(english)).toBe(true);
    expect(await page.locator('.call-status').textContent()).toBe('Nobody else is connected to the meeting');
    // The tiles too, which render again only when what they show changes: a language change is such a change.
    await ownPin('Pin').waitFor({ timeout: 5_000 });
    expect(await ownTile.getByRole('button', { name: 'Blurred background' }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'languages-conference-en');

    // Remembered in this browser.
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');
    await page.goto(`/meetings/${meetingId}/lobby`);
    await page.getByRole('heading', { level: 1, name: 'To the meeting' }).waitFor();
    // A staff screen stays Swedish whatever was chosen.
    await page.goto('/meetings');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'sv', dir: 'ltr' });
    expect(await page.getByRole('combobox', { name: 'Language' }).count()).toBe(0);
  });

  it('public access: English from the browser, Arabic chosen, right to left, both axe-clean', async () => {
    const { page } = await bench.newPage({ locale: 'en-GB' });
    await page.goto(`/publicaccess/${webcastRoom}`);
    await page.getByRole('heading', { level: 1, name: 'Welcome to the information meeting' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'en', dir: 'ltr' });
    await page.getByRole('button', { name: 'Join the meeting' }).click();
    await page.getByRole('alert').filter({ hasText: 'Name is required' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await page.getByRole('heading', { level: 1, name: 'أهلاً بك في الاجتماع الإعلامي' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    // The error shown stays, now in Arabic.
    await page.getByRole('alert').filter({ hasText: 'الاسم مطلوب' }).waitFor();
    const name = page.getByRole('textbox', { name: 'أدخل الاسم' });
    expect(await name.evaluate((e) => getComputedStyle(e).direction)).toBe('rtl');
    // The header mirrored: the menu button, first in the document, at the right.
    const menuX = await page.locator('.app-header__menu').evaluate((e) => e.getBoundingClientRect().left);
    const switcherX = await page.locator('.app-header .language-switcher').evaluate((e) => e.getBoundingClientRect().left);
    expect(menuX).toBeGreaterThan(switcherX);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'languages-public-access-ar');
  });
});
