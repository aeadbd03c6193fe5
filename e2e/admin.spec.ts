import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newUserPage } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { migrate, openPglite } from '../apps/server/src/platform/db.ts';
import { loadSecretKey, pinCrypto } from '../apps/server/src/platform/crypto.ts';
import { insertMeeting } from '../apps/server/src/testing/fixtures.ts';

/**
 * Administration in the browser: system messages from Anna's form to Jonna's page, the admin guard, and the
 * other admin pages. A held meeting is written into the database before the server starts (the booking API
 * refuses meetings in the past), so Statistik has something real to count.
 */
let server: RunningServer;
let browser: Browser;
let current: { id: string; roomId: string };
let heldDay = '';

const stockholmDay = (d: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-e2e-admin-'));
  const db = await openPglite(path.join(dataDir, 'db'));
  await migrate(db);
  const pins = pinCrypto(loadSecretKey(dataDir, null));
  const start = new Date(Date.now() - 3 * 3_600_000);
  heldDay = stockholmDay(start);
  await insertMeeting(db, pins, {
    title: 'Avstämning',
    start,
    end: new Date(Date.now() - 2 * 3_600_000),
    participants: [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ],
  });
  // Felsökning looks at a meeting going on now: the held one may be purged by retention if the suite runs just
  // after midnight (its statistics survive that; its row does not).
  current = await insertMeeting(db, pins, {
    title: 'Pågående samtal',
    start: new Date(Date.now() - 10 * 60_000),
    end: new Date(Date.now() + 50 * 60_000),
    participants: [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ],
  });
  await db.close();
  [server, browser] = await Promise.all([startServer({}, { dataDir }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ timeout: 15_000 });
}

async function axeClean(page: Page): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

/** The system-message alert with this title, or null (waits for the page's messages to load first). */
async function alertTitles(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  return (await page.locator('.system-message .ui-alert__title').allTextContents()).map((s) => s.trim());
}

const today = () => stockholmDay(new Date());
const tomorrow = () => stockholmDay(new Date(Date.now() + 86_400_000));

describe('system messages', () => {
  it('Anna creates a warning for external users; Jonna sees it, Erik does not; Anna edits and deletes it', async () => {
    const anna = await newUserPage(browser, server.url);
    await loginAs(anna.page, 'anna', '/admin/systemmeddelanden');
    await heading(anna.page, 'Systemmeddelanden');
    await anna.page.getByText('Det finns inga meddelanden').waitFor();
    await axeClean(anna.page);

    await anna.page.getByRole('link', { name: 'Skapa ny' }).click();
    await heading(anna.page, 'Skapa ett meddelande');
    await axeClean(anna.page);
    // Nothing filled in: every required field is listed with the alert icon, and the list takes focus.
    await anna.page.getByRole('button', { name: 'Spara' }).click();
    const errors = anna.page.locator('.error-list');
    await errors.waitFor();
    expect((await errors.locator('li').allTextContents()).map((s) => s.replace('⚠', '').trim())).toEqual([
      'Du behöver välja en typ',
      'Du behöver ange ett meddelande',
      'Du behöver ange ett startdatum',
      'Du behöver ange en starttid',
      'Du behöver ange ett slutdatum',
      'Du behöver ange en sluttid',
    ]);
    expect(await errors.evaluate((el) => el === document.activeElement)).toBe(true);
    await axeClean(anna.page);

    const text = 'Planerat underhåll i kväll mellan 18 och 20';
    await anna.page.getByRole('radio', { name: 'Varning' }).check();
    await anna.page.getByRole('textbox', { name: 'Meddelande' }).fill(text);
    await anna.page.getByLabel('Startdatum').fill(today());
    await anna.page.getByLabel('Starttid').fill('00:00');
    await anna.page.getByLabel('Slutdatum').fill(tomorrow());
    await anna.page.getByLabel('Sluttid').fill('23:59');
    await anna.page.getByRole('checkbox', { name: 'Externa användare (E)' }).check();
    await anna.page.getByRole('button', { name: 'Spara' }).click();
    await heading(anna.page, 'Systemmeddelanden');
    const row = anna.page.getByRole('row').filter({ hasText: text });
    await row.waitFor();
    expect(await row.getByRole('cell').first().textContent()).toContain('Varning');
    expect(await row.locator('.badge').allTextContents()).toEqual(['EExterna']);
    await axeClean(anna.page);

    const jonna = await newUserPage(browser, server.url);
    await loginAs(jonna.page, 'jonna', '/usersupport');
    expect(await alertTitles(jonna.page)).toEqual(['Varning']);
    expect(await jonna.page.locator('.system-message').textContent()).toContain(text);
    await axeClean(jonna.page);

    const erik = await newUserPage(browser, server.url);
    await loginAs(erik.page, 'erik', '/usersupport');
    await heading(erik.page, 'Användarstöd');
    expect(await alertTitles(erik.page)).toEqual([]);
    expect(await erik.page.getByText(text).count()).toBe(0);

    // Anna edits it.
    await row.getByRole('link', { name: text }).click();
    await heading(anna.page, 'Ändra meddelandet');
    await axeClean(anna.page);
    const edited = 'Underhållet är flyttat till i morgon';
    await anna.page.getByRole('textbox', { name: 'Meddelande' }).fill(edited);
    await anna.page.getByRole('button', { name: 'Spara' }).click();
    await heading(anna.page, 'Systemmeddelanden');
    await anna.page.getByRole('link', { name: edited }).waitFor();
    await jonna.page.reload();
    expect(await alertTitles(jonna.page)).toEqual(['Varning']);
    expect(await jonna.page.locator('.system-message').textContent()).toContain(edited);

    // The server's own check: an end before the start is refused and listed.
    await anna.page.getByRole('link', { name: edited }).click();
    await heading(anna.page, 'Ändra meddelandet');
    await anna.page.getByLabel('Slutdatum').fill(today());
    await anna.page.getByLabel('Sluttid').fill('00:00');
    await anna.page.getByRole('button', { name: 'Spara' }).click();
    await anna.page.locator('.error-list').getByText('Sluttiden måste vara senare än starttiden').waitFor();

    // And deletes it.
    await anna.page.getByRole('button', { name: 'Ta bort' }).click();
    const confirm = anna.page.getByRole('alertdialog', { name: 'Vill du ta bort meddelandet?' });
    await confirm.waitFor();
    await axeClean(anna.page);
    await confirm.getByRole('button', { name: 'Ja, ta bort' }).click();
    await heading(anna.page, 'Systemmeddelanden');
    await anna.page.getByText('Det finns inga meddelanden').waitFor();
    await jonna.page.reload();
    await heading(jonna.page, 'Användarstöd');
    expect(await alertTitles(jonna.page)).toEqual([]);

    for (const c of [anna, jonna, erik]) await c.context.close();
  });

  it('shows errors, warnings and infos with their Swedish titles to the audience they are meant for', async () => {
    const anna = await newUserPage(browser, server.url);
    await loginAs(anna.page, 'anna', '/admin');
    await heading(anna.page, 'Administration');
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 3_600_000).toISOString();
    const ids: string[] = [];
    for (const [type, value] of [[2, 'Tjänsten är nere'], [0, 'Ny version i dag']] as const) {
      const res = await anna.page.evaluate(
        async (body) => {
          const token = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='))?.split('=')[1] ?? '';
          const r = await fetch('/api/message', { method: 'POST', headers: { 'content-type': 'application/json', 'x-xsrf-token': decodeURIComponent(token) }, body: JSON.stringify({ data: body }) });
          return r.json();
        },
        { type, value, startTime: start, endTime: end, showInternal: true, showExternal: false, showKauser: true },
      );
      ids.push(res.data.id);
    }
    const karin = await newUserPage(browser, server.url);
    await loginAs(karin.page, 'karin', '/usersupport');
    expect(await alertTitles(karin.page)).toEqual(['Systemfel', 'Information']);
    await anna.page.goto('/usersupport');
    expect(await alertTitles(anna.page)).toEqual(['Systemfel', 'Information']);
    await axeClean(anna.page);
    const jonna = await newUserPage(browser, server.url);
    await loginAs(jonna.page, 'jonna', '/usersupport');
    expect(await alertTitles(jonna.page)).toEqual([]);
    for (const id of ids) {
      await anna.page.evaluate(async (messageId) => {
        const token = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='))?.split('=')[1] ?? '';
        await fetch(`/api/message/${messageId}`, { method: 'DELETE', headers: { 'x-xsrf-token': decodeURIComponent(token) } });
      }, id);
    }
    for (const c of [anna, karin, jonna]) await c.context.close();
  });
});

describe('admin guard', () => {
  it('sends a non-admin from every admin page to the start page with a console error', async () => {
    const erik = await newUserPage(browser, server.url);
    const consoleErrors: string[] = [];
    erik.page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await loginAs(erik.page, 'erik', '/usersupport');
    for (const p of ['/admin', '/admin/systemmeddelanden', '/admin/systemmeddelanden/new', '/admin/groups', '/admin/appsettings', '/admin/statistik', '/admin/felsokning']) {
      await erik.page.goto(p);
      await erik.page.waitForURL((url) => !url.pathname.startsWith('/admin'), { timeout: 15_000 });
    }
    expect(consoleErrors.some((e) => e.includes('administratörsbehörighet'))).toBe(true);
    await erik.context.close();
  });
});

describe('the other admin pages', () => {
  it('Statistik shows the meeting that was held, as chart and table, and exports CSV', async () => {
    const { context, page } = await newUserPage(browser, server.url);
    await loginAs(page, 'anna', '/admin/statistik');
    await heading(page, 'Statistik');
    const row = page.locator('.stats-table tbody tr').filter({ has: page.getByRole('rowheader', { name: heldDay, exact: true }) });
    await row.waitFor();
    // Möten, Webbsändningar, Deltagare
    expect((await row.getByRole('cell').allTextContents()).slice(0, 3)).toEqual(['1', '0', '2']);
    expect(await page.locator('svg[role="img"]').count()).toBe(3);
    expect(await page.locator('.series-1 >> nth=0').count()).toBe(1);
    await axeClean(page);
    const href = await page.getByRole('link', { name: 'Ladda ner CSV' }).getAttribute('href');
    const csv = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(csv).toContain('Period;Möten;Webbsändningar;Deltagare');
    expect(csv).toContain(`${heldDay};1;0;2;0;`);
    // Per week.
    await page.getByLabel('Gruppera per', { exact: true }).selectOption('week');
    await page.getByRole('button', { name: 'Visa' }).click();
    await page.getByRole('columnheader', { name: 'Vecka' }).waitFor();
    expect(await page.locator('.stats-table tfoot').textContent()).toContain('Totalt');
    await axeClean(page);
    await context.close();
  });

  it('Felsökning finds the meeting by its link and lists participants without personnummer', async () => {
    const { context, page } = await newUserPage(browser, server.url);
    await loginAs(page, 'anna', '/admin/felsokning');
    await heading(page, 'Felsökning');
    await axeClean(page);
    await page.getByRole('textbox', { name: 'Mötes-id eller möteslänk' }).fill(`${server.url}/meetings/${current.id}/lobby`);
    await page.getByRole('button', { name: 'Sök' }).click();
    await page.getByRole('heading', { level: 2, name: 'Pågående samtal' }).waitFor();
    const table = page.getByRole('table', { name: 'Inbjudna deltagare' });
    expect(await table.getByRole('rowheader').allTextContents()).toEqual(['Erik Handläggare', 'Jonna Sökande']);
    expect(await page.getByText('Pågår', { exact: true }).count()).toBe(1);
    expect(await page.content()).not.toMatch(/199001012385|19900101-2385/);
    await axeClean(page);
    await page.getByRole('textbox', { name: 'Mötes-id eller möteslänk' }).fill('finns-inte');
    await page.getByRole('button', { name: 'Sök' }).click();
    await page.getByText('Inget möte hittades för den angivna länken eller id:t').waitFor();
    await context.close();
  });

  it('Grupper and AppSettings show, save and are axe-clean; the admin start page links every section', async () => {
    const { context, page } = await newUserPage(browser, server.url);
    await loginAs(page, 'anna', '/admin');
    await heading(page, 'Administration');
    for (const name of ['Grupper', 'AppSettings', 'Statistik', 'Felsökning', 'Systemmeddelanden']) {
      expect(await page.getByRole('main').getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    await axeClean(page);

    await page.goto('/admin/groups');
    await heading(page, 'Grupper');
    const share = page.getByRole('checkbox', { name: 'Dela skärm för KA-användare' });
    expect(await share.isChecked()).toBe(false);
    await share.check();
    await page.getByRole('button', { name: 'Spara' }).click();
    await page.getByText('Grupperna är sparade. De gäller från nästa inloggning.').waitFor();
    await axeClean(page);
    await page.reload();
    await heading(page, 'Grupper');
    expect(await page.getByRole('checkbox', { name: 'Dela skärm för KA-användare' }).isChecked()).toBe(true);
    // Karin's next login has it.
    const karin = await newUserPage(browser, server.url);
    await loginAs(karin.page, 'karin', '/usersupport');
    const features = await karin.page.evaluate(async () => (await (await fetch('/api/login/getuserdata')).json()).data.features);
    expect(features).toEqual(['EditMeeting', 'ScreenShare']);
    await karin.context.close();
    await page.getByRole('checkbox', { name: 'Dela skärm för KA-användare' }).uncheck();
    await page.getByRole('button', { name: 'Spara' }).click();
    await page.getByText('Grupperna är sparade. De gäller från nästa inloggning.').waitFor();

    await page.goto('/admin/appsettings');
    await heading(page, 'AppSettings');
    await page.getByRole('row', { name: /PIN_KEY/ }).waitFor();
    expect(await page.getByRole('switch', { name: 'Betygsättning av samtal' }).isChecked()).toBe(true);
    await axeClean(page);
    await context.close();
  });
});
