import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { ERIK_WITH_JONNA, seededDataDir } from './support/seed.ts';
import { apiCall as pageApiCall } from './support/call.ts';

/**
 * Administration in the browser: system messages from Anna's form to Jonna's page, the admin guard, and the
 * other admin pages. A held meeting is written into the database before the server starts (the booking API
 * refuses meetings in the past), so Statistik has something real to count.
 */
let current: { id: string; roomId: string };
let heldDay = '';

const stockholmDay = (d: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);

const bench = useBench(() =>
  seededDataDir(async (insert) => {
    const start = new Date(Date.now() - 3 * 3_600_000);
    heldDay = stockholmDay(start);
    await insert({
      title: 'Avstämning',
      start,
      end: new Date(Date.now() - 2 * 3_600_000),
      participants: ERIK_WITH_JONNA,
    });
    // Felsökning looks at a meeting going on now: the held one may be purged by retention if the suite runs just
    // after midnight (its statistics survive that; its row does not).
    current = await insert({
      title: 'Pågående samtal',
      start: new Date(Date.now() - 10 * 60_000),
      end: new Date(Date.now() + 50 * 60_000),
      participants: ERIK_WITH_JONNA,
    });
  }),
);

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

/** A JSON API call from the page, with its session and anti-forgery token (e2e/support/call.ts), its answer parsed. */
async function apiCall(page: Page, method: string, url: string, data?: unknown): Promise<{ status: number; body: { data?: Record<string, unknown>; message?: string } }> {
  const { status, body } = await pageApiCall(page, method, url, data);
  return { status, body: body ? JSON.parse(body) : {} };
}

const today = () => stockholmDay(new Date());
const tomorrow = () => stockholmDay(new Date(Date.now() + 86_400_000));

describe('system messages', () => {
  it('Anna creates a warning for external users; Jonna sees it, Erik does not; Anna edits and deletes it', async () => {
    const anna = await bench.newPage();
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

    const jonna = await bench.newPage();
    await loginAs(jonna.page, 'jonna', '/usersupport');
    expect(await alertTitles(jonna.page)).toEqual(['Varning']);
    expect(await jonna.page.locator('.system-message').textContent()).toContain(text);
    await axeClean(jonna.page);

    const erik = await bench.newPage();
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
    const anna = await bench.newPage();
    await loginAs(anna.page, 'anna', '/admin');
    await heading(anna.page, 'Administration');
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const end = new Date(Date.now() + 3_600_000).toISOString();
    const ids: string[] = [];
    for (const [type, value] of [[2, 'Tjänsten är nere'], [0, 'Ny version i dag']] as const) {
      const res = await pageApiCall(anna.page, 'POST', '/api/message', { type, value, startTime: start, endTime: end, showInternal: true, showExternal: false, showKauser: true });
      expect(res.status, res.body).toBe(200);
      ids.push(JSON.parse(res.body).data.id);
    }
    const karin = await bench.newPage();
    await loginAs(karin.page, 'karin', '/usersupport');
    expect(await alertTitles(karin.page)).toEqual(['Systemfel', 'Information']);
    await anna.page.goto('/usersupport');
    expect(await alertTitles(anna.page)).toEqual(['Systemfel', 'Information']);
    await axeClean(anna.page);
    const jonna = await bench.newPage();
    await loginAs(jonna.page, 'jonna', '/usersupport');
    expect(await alertTitles(jonna.page)).toEqual([]);
    for (const id of ids) expect((await pageApiCall(anna.page, 'DELETE', `/api/message/${id}`)).status).toBe(200);
    for (const c of [anna, karin, jonna]) await c.context.close();
  });
});

describe('system message edited in two places', () => {
  it('refuses the stale save with the Swedish 409 message and offers to reload; after reloading the save goes through', async () => {
    const anna = await bench.newPage();
    await loginAs(anna.page, 'anna', '/admin');
    await heading(anna.page, 'Administration');
    const start = new Date(Date.now() + 86_400_000).toISOString();
    const end = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const base = { type: 0, startTime: start, endTime: end, showInternal: true, showExternal: false, showKauser: false };
    const created = await apiCall(anna.page, 'POST', '/api/message', { ...base, value: 'Första versionen' });
    const id = created.body.data!.id as string;
    await anna.page.goto(`/admin/systemmeddelanden/${id}/edit`);
    await heading(anna.page, 'Ändra meddelandet');
    await anna.page.getByRole('textbox', { name: 'Meddelande' }).fill('Min ändring');

    // Meanwhile another administrator (another tab) saves the same version.
    const other = await bench.newPage();
    await loginAs(other.page, 'anna', '/admin');
    expect((await apiCall(other.page, 'PUT', '/api/message', { ...base, id, value: 'Ändrat i en annan flik', version: 1 })).status).toBe(200);

    await anna.page.getByRole('button', { name: 'Spara' }).click();
    await anna.page.locator('.error-list').getByText('Meddelandet har ändrats av någon annan sedan du öppnade det. Ladda om meddelandet för att se de senaste uppgifterna.').waitFor();
    await axeClean(anna.page);
    await anna.page.getByRole('button', { name: 'Ladda om meddelandet' }).click();
    await expect.poll(() => anna.page.getByRole('textbox', { name: 'Meddelande' }).inputValue()).toBe('Ändrat i en annan flik');
    expect(await anna.page.locator('.error-list').count()).toBe(0);
    await anna.page.getByRole('textbox', { name: 'Meddelande' }).fill('Min ändring, efter omladdning');
    await anna.page.getByRole('button', { name: 'Spara' }).click();
    await heading(anna.page, 'Systemmeddelanden');
    await anna.page.getByRole('link', { name: 'Min ändring, efter omladdning' }).waitFor();
    expect((await apiCall(anna.page, 'GET', `/api/message/${id}`)).body.data).toMatchObject({ value: 'Min ändring, efter omladdning', version: 3 });
    await apiCall(anna.page, 'DELETE', `/api/message/${id}`);
    for (const c of [anna, other]) await c.context.close();
  });
});

describe('admin guard', () => {
  it('sends a non-admin from every admin page to the start page with a console error', async () => {
    const erik = await bench.newPage();
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
    const { context, page } = await bench.newPage();
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
    const { context, page } = await bench.newPage();
    await loginAs(page, 'anna', '/admin/felsokning');
    await heading(page, 'Felsökning');
    await axeClean(page);
    await page.getByRole('textbox', { name: 'Mötes-id eller möteslänk' }).fill(`${bench.server.url}/meetings/${current.id}/lobby`);
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

  it('Felsökning lists the meeting’s recent errors: a call error Jonna’s browser reported, with time, source, code and text', async () => {
    const jonna = await bench.newPage();
    await loginAs(jonna.page, 'jonna', '/usersupport');
    const reported = await apiCall(jonna.page, 'POST', '/api/meetingerror', { meetingId: current.id, code: 'OT_HARDWARE_UNAVAILABLE', message: 'NotReadableError: kameran används av ett annat program' });
    expect(reported.status).toBe(200);
    const { context, page } = await bench.newPage();
    await loginAs(page, 'anna', '/admin/felsokning');
    await heading(page, 'Felsökning');
    await page.getByRole('textbox', { name: 'Mötes-id eller möteslänk' }).fill(current.id);
    await page.getByRole('button', { name: 'Sök' }).click();
    const errors = page.getByRole('table', { name: 'Senaste fel, nyast först' });
    await errors.waitFor();
    const cells = await errors.getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(cells.slice(1)).toEqual(['Webbläsare', 'OT_HARDWARE_UNAVAILABLE', 'NotReadableError: kameran används av ett annat program']);
    expect(cells[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await axeClean(page);
    await context.close();
    await jonna.context.close();
  });

  it('Grupper and AppSettings show, save and are axe-clean; the admin start page links every section', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'anna', '/admin');
    await heading(page, 'Administration');
    for (const name of ['Grupper', 'AppSettings', 'Statistik', 'Felsökning', 'Systemmeddelanden']) {
      expect(await page.getByRole('main').getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    await axeClean(page);

    await page.goto('/admin/groups');
    await heading(page, 'Grupper');
    // Every group shares a screen by default; the administrator withdraws it per group.
    const share = page.getByRole('checkbox', { name: 'Dela skärm för KA-användare' });
    expect(await share.isChecked()).toBe(true);
    await share.uncheck();
    await page.getByRole('button', { name: 'Spara' }).click();
    await page.getByText('Grupperna är sparade. De gäller från nästa inloggning.').waitFor();
    await axeClean(page);
    await page.reload();
    await heading(page, 'Grupper');
    expect(await page.getByRole('checkbox', { name: 'Dela skärm för KA-användare' }).isChecked()).toBe(false);
    // Karin's next login is without it.
    const karin = await bench.newPage();
    await loginAs(karin.page, 'karin', '/usersupport');
    const features = await karin.page.evaluate(async () => (await (await fetch('/api/login/getuserdata')).json()).data.features);
    expect(features).toEqual(['EditMeeting']);
    await karin.context.close();
    await page.getByRole('checkbox', { name: 'Dela skärm för KA-användare' }).check();
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

describe('the admin pages on a 375 px phone', () => {
  it('tables scroll in named regions reachable by keyboard, the pages are axe-clean and none is wider than the screen', async () => {
    const { context, page } = await bench.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    await loginAs(page, 'anna', '/admin');
    await heading(page, 'Administration');
    // A long message with a long link in it: the list once ran 193 px off the screen.
    const created = await apiCall(page, 'POST', '/api/message', {
      type: 1,
      value: 'Planerat underhåll i kväll, läs mer på https://videomote.example.se/driftinformation/planerat-underhall-och-uppdateringar',
      startTime: new Date(Date.now() - 3_600_000).toISOString(),
      endTime: new Date(Date.now() + 3_600_000).toISOString(),
      showInternal: true,
      showExternal: true,
      showKauser: true,
    });
    expect(created.status).toBe(200);
    const pages = [
      ['/admin/statistik', 'Statistik', 'Statistik per dag'],
      ['/admin/appsettings', 'AppSettings', 'Gällande konfiguration'],
      ['/admin/groups', 'Grupper', 'Roller och vad de ger'],
      ['/admin/systemmeddelanden', 'Systemmeddelanden', 'Alla systemmeddelanden'],
    ] as const;
    for (const [path, name, region] of pages) {
      await page.goto(path);
      await heading(page, name);
      const area = page.getByRole('region', { name: region, exact: true });
      await area.getByRole('table').waitFor();
      expect(await area.getAttribute('tabindex'), path).toBe('0');
      await axeClean(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), path).toBeLessThanOrEqual(0);
    }
    // The configuration is wider than a phone: the keyboard scrolls it once its area has focus.
    await page.goto('/admin/appsettings');
    const config = page.getByRole('region', { name: 'Gällande konfiguration', exact: true });
    await config.getByRole('row', { name: /PIN_KEY/ }).waitFor();
    expect(await config.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await config.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => config.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    expect((await apiCall(page, 'DELETE', `/api/message/${String(created.body.data?.id)}`)).status).toBe(200);
    await context.close();
  });
});
