import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { expectAxeClean } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { tomorrow, TOLK_PIN } from './support/booking.ts';
import { apiCall } from './support/call.ts';

const bench = useBench();

const upcoming = (page: Page) => page.locator('section[aria-labelledby="upcoming-heading"]');
const card = (page: Page, title: string) => upcoming(page).getByRole('listitem', { name: title, exact: true });

async function openCard(page: Page, title: string) {
  const c = card(page, title);
  await c.waitFor();
  const toggle = c.locator('.vm-card__toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return c;
}

async function addExternal(page: Page, index: number, role: string, name: string, pin: string) {
  await page.getByRole('button', { name: 'Lägg till deltagare' }).click();
  await page.locator(`#participant-${index}-role`).selectOption({ label: role });
  await page.locator(`#participant-${index}-displayName`).fill(name);
  await page.locator(`#participant-${index}-pin`).fill(pin);
  await page.getByRole('button', { name: 'Spara deltagare' }).click();
  await page.getByRole('heading', { level: 3, name }).waitFor();
}

describe('booking journey', () => {
  it('Erik books a meeting with Jonna and an interpreter, sees it, edits, copies and deletes it; Jonna sees only hers', async () => {
    const erik = await bench.newPage();
    const page = erik.page;
    await loginAs(page, 'erik', '/meetings');
    await page.getByRole('heading', { level: 1, name: 'Välkommen Erik Handläggare' }).waitFor();
    await page.getByText('Du har inga möten inbokade idag').waitFor();
    await page.getByText('Du har inga fler möten').waitFor();
    await expectAxeClean(page, 'home, empty');

    // An empty form: the summary takes focus and its links lead to the fields.
    await page.getByRole('link', { name: 'Skapa videomöte' }).click();
    await page.getByRole('heading', { level: 1, name: 'Skapa videomöte' }).waitFor();
    await expectAxeClean(page, 'create form');
    await page.getByRole('button', { name: 'Spara videomöte' }).first().click();
    const summary = page.locator('.vm-error-summary');
    await summary.getByRole('heading', { name: 'Komplettera följande uppgifter för att boka mötet' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.classList.contains('vm-error-summary'))).toBe(true);
    expect(await summary.getByRole('link').allTextContents()).toEqual(['Rubrik', 'Datum', 'Starttid', 'Sluttid']);
    await page.getByText('Du behöver ange en rubrik').waitFor();
    await summary.getByRole('link', { name: 'Starttid' }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('startTime');
    await expectAxeClean(page, 'create form with errors');

    // Fill it in: Jonna as job seeker, an interpreter, and a colleague found by the employee search.
    await page.getByLabel('Rubrik').fill('Planeringssamtal');
    await page.getByLabel('Datum').fill(tomorrow());
    await page.getByLabel('Starttid').fill('10:00');
    await page.getByLabel('Sluttid').fill('11:00');
    await addExternal(page, 1, 'Arbetssökande', 'Jonna Sökande', '19900101-2385');
    await addExternal(page, 2, 'Tolk', 'Tolk Tolksson', TOLK_PIN);
    await page.getByRole('button', { name: 'Lägg till deltagare' }).click();
    await page.locator('#participant-3-role').selectOption({ label: 'Anställd på Arbetsförmedlingen' });
    await page.locator('#participant-3-afId').fill('marlin');
    await page.getByText('Vald: Maria Lindqvist (marlin)').waitFor(); // one hit: selected without a click
    await page.getByRole('button', { name: 'Spara deltagare' }).click();
    await page.getByRole('heading', { level: 3, name: 'Maria Lindqvist' }).waitFor();
    await page.getByRole('button', { name: 'Spara videomöte' }).last().click();

    await page.getByRole('heading', { level: 1, name: 'Mötet är sparat' }).waitFor();
    const meetingId = new URL(page.url()).pathname.split('/')[2]!;
    expect(page.url()).toMatch(/\/meetings\/[0-9a-f-]{36}\/saved$/);
    await page.getByRole('link', { name: new RegExp(`/meetings/${meetingId}/lobby$`) }).waitFor();
    expect(await page.getByRole('link', { name: 'Gå till mötet' }).getAttribute('href')).toBe(`/meetings/${meetingId}/lobby`);
    await expectAxeClean(page, 'saved page');

    // It is listed under 'Kommande möten' for tomorrow's week, with admin actions.
    await page.getByRole('link', { name: 'Dina videomöten' }).click();
    let c = await openCard(page, 'Planeringssamtal');
    expect(await c.locator('.vm-card__time').textContent()).toMatch(/^\p{L}+ \d{4}-\d{2}-\d{2}, 10:00–11:00, Videomöte$/u);
    await c.getByRole('heading', { name: 'Administratörer (1)' }).waitFor();
    await c.getByRole('heading', { name: 'Deltagare (3)' }).waitFor();
    expect(await c.getByRole('link', { name: 'Lägg till i kalender' }).getAttribute('href')).toBe(`/api/meeting/${meetingId}/calendar.ics`);
    await expectAxeClean(page, 'home with an open card');

    // Edit.
    await c.getByRole('link', { name: 'Ändra Planeringssamtal' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ändra videomöte' }).waitFor();
    expect(await page.getByLabel('Rubrik').inputValue()).toBe('Planeringssamtal');
    await page.getByText('personnummer 19900101-****').waitFor();
    await expectAxeClean(page, 'edit form');
    await page.getByLabel('Rubrik').fill('Planeringssamtal, ändrat');
    await page.getByRole('button', { name: 'Spara videomöte' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Mötet är sparat' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`/meetings/${meetingId}/updated$`));

    // Copy.
    await page.getByRole('link', { name: 'Dina videomöten' }).click();
    c = await openCard(page, 'Planeringssamtal, ändrat');
    await c.getByRole('link', { name: 'Kopiera Planeringssamtal, ändrat' }).click();
    await page.getByRole('heading', { level: 1, name: 'Kopiera videomöte' }).waitFor();
    await page.getByLabel('Rubrik').fill('Uppföljning');
    await page.getByLabel('Starttid').fill('13:00');
    await page.getByLabel('Sluttid').fill('13:30');
    await page.getByRole('button', { name: 'Spara videomöte' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Mötet är sparat' }).waitFor();
    const copyId = new URL(page.url()).pathname.split('/')[2]!;
    expect(copyId).not.toBe(meetingId);

    // Delete the copy through the dialog.
    await page.getByRole('link', { name: 'Dina videomöten' }).click();
    c = await openCard(page, 'Uppföljning');
    await c.getByRole('button', { name: 'Ta bort Uppföljning' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ta bort mötet' });
    await dialog.waitFor();
    await expectAxeClean(page, 'delete dialog');
    await dialog.getByRole('button', { name: 'Ja, ta bort' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mötet är borttaget' }).waitFor();
    await expectAxeClean(page, 'deleted page');

    // A meeting Jonna is not in, booked through the API.
    const xsrf = (await erik.context.cookies()).find((k) => k.name === 'XSRF-TOKEN')!.value;
    const other = await page.request.post('/api/meeting', {
      headers: { 'x-xsrf-token': xsrf },
      data: { data: { title: 'Internt möte', type: 0, startTime: `${tomorrow()}T15:00:00+01:00`, endTime: `${tomorrow()}T15:30:00+01:00`, participants: [{ currentUser: true, role: 'EmploymentOfficer' }] } },
    });
    expect(other.status()).toBe(200);
    await erik.context.close();

    const jonna = await bench.newPage();
    await loginAs(jonna.page, 'jonna', '/meetings');
    await jonna.page.getByRole('heading', { level: 1, name: 'Välkommen Jonna Sökande' }).waitFor();
    const jc = await openCard(jonna.page, 'Planeringssamtal, ändrat');
    expect(await upcoming(jonna.page).locator('.vm-card__title').allTextContents()).toEqual(['Planeringssamtal, ändrat']);
    expect(await jonna.page.getByRole('link', { name: 'Skapa videomöte' }).count()).toBe(0);
    expect(await jc.getByRole('link', { name: /^Ändra/ }).count()).toBe(0);
    await expectAxeClean(jonna.page, 'Jonna home');
    // The booking form is not hers: back to the start.
    await jonna.page.goto('/meetings/new');
    await jonna.page.waitForURL((u) => u.pathname === '/meetings');
    await jonna.context.close();
  });
});

describe('form rules in the browser', () => {
  it('type change resets participants, unsaved cards block saving, a removed card asks first, KA users choose no type', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'erik', '/meetings/new');
    await page.getByRole('heading', { level: 1, name: 'Skapa videomöte' }).waitFor();
    await addExternal(page, 1, 'Arbetssökande', 'Jonna Sökande', '19900101-2385');
    // A card left open: the add button hides and the save is refused.
    await page.getByRole('button', { name: 'Lägg till deltagare' }).click();
    expect(await page.getByRole('button', { name: 'Lägg till deltagare' }).count()).toBe(0);
    // On a phone the open card, with its long role names, stays within the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Rubrik').fill('Regler');
    await page.getByLabel('Datum').fill(tomorrow());
    await page.getByLabel('Starttid').fill('09:00');
    await page.getByLabel('Sluttid').fill('09:30');
    await page.getByRole('button', { name: 'Spara videomöte' }).first().click();
    await page.locator('.vm-error-summary').getByRole('link', { name: 'Alla deltagare måste sparas' }).waitFor();
    // Cancel on a new card removes it.
    await page.getByRole('button', { name: 'Avbryt', exact: true }).first().click();
    expect(await page.locator('#participant-2').count()).toBe(0);
    // Removing a participant asks first.
    await page.getByRole('button', { name: 'Ta bort Jonna Sökande' }).click();
    await page.getByRole('dialog', { name: 'Ta bort deltagaren' }).getByRole('button', { name: 'Nej, avbryt' }).click();
    await page.getByRole('heading', { level: 3, name: 'Jonna Sökande' }).waitFor();
    // Changing the type resets the participants to the user with the default role.
    await page.getByLabel('Informationsmöte').check();
    await page.getByRole('heading', { level: 2, name: 'Presentatörer' }).waitFor();
    expect(await page.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Erik Handläggare (du)Administratör']);
    await page.getByText('Intern presentatör').waitFor();
    await page.getByRole('button', { name: 'Lägg till presentatör' }).click();
    // A webcast may book a text interpreter too: the viewers get the captions.
    expect(await page.locator('#participant-1-role option').allTextContents()).toEqual(['- Välj roll -', 'Extern presentatör', 'Intern presentatör', 'Skrivtolk']);
    await expectAxeClean(page, 'webcast form with an open card');
    await context.close();

    const ka = await bench.newPage();
    await loginAs(ka.page, 'karin', '/meetings/new');
    await ka.page.getByRole('heading', { level: 1, name: 'Skapa videomöte' }).waitFor();
    expect(await ka.page.getByText('Typ av möte').count()).toBe(0);
    await ka.page.getByText('Leverantör till Arbetsförmedlingen').waitFor();
    await ka.page.getByRole('button', { name: 'Lägg till deltagare' }).click();
    const options = await ka.page.locator('#participant-1-role option').allTextContents();
    expect(options).not.toContain('Anställd på Arbetsförmedlingen');
    expect(options).toContain('Arbetssökande');
    await ka.context.close();
  });

  it('a stale save offers to reload, and the reload shows the other change', async () => {
    const a = await bench.newPage();
    await loginAs(a.page, 'anna', '/meetings');
    const res = await apiCall(a.page, 'POST', '/api/meeting', {
      title: 'Samtidigt', type: 0, startTime: `${tomorrow()}T12:00:00+01:00`, endTime: `${tomorrow()}T12:30:00+01:00`, participants: [{ currentUser: true, role: 'EmploymentOfficer' }],
    });
    const id = JSON.parse(res.body).data.id as string;
    const b = await a.context.newPage();
    for (const p of [a.page, b]) {
      await p.goto(`/meetings/${id}/edit`);
      await p.getByRole('heading', { level: 1, name: 'Ändra videomöte' }).waitFor();
    }
    await b.getByLabel('Rubrik').fill('Från flik B');
    await b.getByRole('button', { name: 'Spara videomöte' }).first().click();
    await b.getByRole('heading', { level: 1, name: 'Mötet är sparat' }).waitFor();
    await a.page.getByLabel('Rubrik').fill('Från flik A');
    await a.page.getByRole('button', { name: 'Spara videomöte' }).first().click();
    await a.page.getByText('Mötet har ändrats av någon annan').waitFor();
    await expectAxeClean(a.page, 'conflict notice');
    await a.page.getByRole('button', { name: 'Ladda om mötet' }).click();
    await a.page.waitForFunction(() => (document.getElementById('title') as HTMLInputElement | null)?.value === 'Från flik B');

    // A webcast's admin sets the expected audience on its card; the lists are read again.
    const web = await apiCall(a.page, 'POST', '/api/meeting', {
      title: 'Informationsträff', type: 1, startTime: `${tomorrow()}T14:00:00+01:00`, endTime: `${tomorrow()}T15:00:00+01:00`, participants: [{ currentUser: true, role: 'PresenterInternal' }],
    });
    const webId = JSON.parse(web.body).data.id as string;
    await a.page.goto('/meetings');
    const wc = await openCard(a.page, 'Informationsträff');
    await wc.locator('.vm-card__time', { hasText: /, Informationsmöte$/ }).waitFor();
    await wc.getByLabel('Antal deltagare i informationsmötet').fill('25');
    await wc.getByRole('button', { name: 'Spara antal' }).click();
    await a.page.waitForFunction(async (id) => (await (await fetch(`/api/meeting/${id}`)).json()).data.countInfoParticipants === 25, webId);
    await wc.locator('summary', { hasText: 'Möteslänkar' }).click();
    await wc.getByRole('link', { name: /\/publicaccess\/[A-Za-z0-9_-]{24}$/ }).waitFor();
    await expectAxeClean(a.page, 'webcast card with links');
    await a.context.close();
  });
});

