import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { isoWeekOf, isoWeekRange, startOfLocalDay } from '@videomote/contract/meeting-rules';
import { useBench } from './support/bench.ts';
import { expectAxeClean } from './support/axe.ts';
import { apiCall } from './support/call.ts';
import { BOOKER_AS_OFFICER, JONNA_BY_PIN } from './support/booking.ts';

// What a user trips over on the booking pages: failed loads and deletes said as errors (never an empty list), the
// week picker's race, personnummer messages, unauthorised edits, and Grupper's InternalMeeting switch. Failures are
// made real in the browser: Playwright's route interception answers that one request with a 500, as a broken
// server or proxy would.
const bench = useBench();

const today = (page: Page) => page.locator('section[aria-labelledby="today-heading"]');
const upcoming = (page: Page) => page.locator('section[aria-labelledby="upcoming-heading"]');
const fail = (route: Route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ name: 'InternalError', message: 'Något gick fel', statusCode: 500 }) });

/** Books through the API as the page's user, at 10:00–11:00 Stockholm time `days` from today. */
async function bookIn(page: Page, days: number, title: string): Promise<string> {
  const start = new Date(startOfLocalDay(new Date(), days).getTime() + 10 * 3600_000);
  const res = await apiCall(page, 'POST', '/api/meeting', {
    title, type: 0, startTime: start.toISOString(), endTime: new Date(start.getTime() + 3600_000).toISOString(), participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN],
  });
  expect(res.status, res.body).toBe(200);
  return JSON.parse(res.body).data.id;
}

describe('the home page says what failed', () => {
  it('a failed load of today or of a week is an error with a retry, a failed delete stays in its dialog, and a slow week never shows under another', async () => {
    const erik = await bench.person('erik');
    const [dayA, dayB] = [startOfLocalDay(new Date(), 8), startOfLocalDay(new Date(), 15)];
    const [weekA, weekB] = [isoWeekOf(dayA), isoWeekOf(dayB)];
    await bookIn(erik, 8, 'Möte vecka A');
    await bookIn(erik, 15, 'Möte vecka B');
    const pageErrors: string[] = [];
    erik.on('pageerror', (e) => pageErrors.push(e.message));

    // Today's list: one failed request is a general error with its reset action, not "no meetings today".
    // Every day request fails until the retry: the page may ask more than once while it starts (seen in a CI run,
    // where a second, successful request left no error to see).
    await erik.route('**/api/meeting/day?*', fail);
    await erik.goto('/meetings');
    await today(erik).getByRole('alert').filter({ hasText: 'Det gick inte att hämta dagens möten' }).waitFor();
    expect(await today(erik).getByText('Du har inga möten inbokade idag').count()).toBe(0);
    expect(new URL(erik.url()).pathname).toBe('/meetings');
    await erik.screenshot({ path: '/tmp/usability-today-failed.png' });
    await expectAxeClean(erik, 'a failed load of today');
    await erik.unroute('**/api/meeting/day?*');
    await today(erik).getByRole('button', { name: 'Försök igen' }).click();
    await today(erik).getByText('Du har inga möten inbokade idag').waitFor();
    expect(await today(erik).getByRole('alert').count()).toBe(0);

    // A week: the same.
    const select = upcoming(erik).getByRole('combobox', { name: 'Välj vecka' });
    await select.waitFor();
    await erik.route('**/api/meeting/week?*', fail, { times: 1 });
    await select.selectOption({ label: `Vecka ${weekB.week}, ${weekB.year}` });
    await upcoming(erik).getByRole('alert').filter({ hasText: `Det gick inte att hämta mötena för vecka ${weekB.week}` }).waitFor();
    expect(await upcoming(erik).getByText('Du har inga fler möten').count()).toBe(0);
    await upcoming(erik).getByRole('button', { name: 'Försök igen' }).click();
    await upcoming(erik).getByText('Möte vecka B').waitFor();

    // The race: week A's answer is held back; B is chosen meanwhile. B's meetings show under B, and A's late answer
    // changes nothing.
    const rangeA = isoWeekRange(weekA.year, weekA.week);
    let heldA = 0;
    await erik.route('**/api/meeting/week?*', async (route) => {
      const from = new Date(new URL(route.request().url()).searchParams.get('from')!);
      if (from >= rangeA.from && from < rangeA.to) {
        heldA += 1;
        await new Promise((r) => setTimeout(r, 2_500));
      }
      await route.continue().catch(() => {}); // the browser may have aborted it: that is the point
    });
    await select.selectOption({ label: `Vecka ${weekA.week}, ${weekA.year}` });
    await select.selectOption({ label: `Vecka ${weekB.week}, ${weekB.year}` });
    await upcoming(erik).getByText('Möte vecka B').waitFor();
    await expect.poll(() => heldA).toBe(1);
    await new Promise((r) => setTimeout(r, 3_500));
    expect(await select.inputValue()).toBe(`${weekB.year}-${weekB.week}`);
    expect(await upcoming(erik).getByText('Möte vecka B').count()).toBe(1);
    expect(await upcoming(erik).getByText('Möte vecka A').count()).toBe(0);
    await erik.unroute('**/api/meeting/week?*');

    // A failed delete: the dialog stays, says so, and can be tried again; nothing is left unhandled.
    const card = upcoming(erik).getByRole('listitem', { name: 'Möte vecka B', exact: true });
    const toggle = card.locator('.vm-card__toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await card.getByRole('button', { name: /^Ta bort/ }).click();
    const dialog = erik.getByRole('dialog', { name: 'Ta bort mötet' });
    await erik.route('**/api/meeting/*', async (route) => (route.request().method() === 'DELETE' ? fail(route) : route.continue()));
    await dialog.getByRole('button', { name: 'Ja, ta bort' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Det gick inte att ta bort mötet.' }).waitFor();
    expect(new URL(erik.url()).pathname).toBe('/meetings');
    expect(await dialog.getByRole('button', { name: 'Ja, ta bort' }).isEnabled()).toBe(true);
    await erik.screenshot({ path: '/tmp/usability-delete-failed.png' });
    await erik.unroute('**/api/meeting/*');
    await dialog.getByRole('button', { name: 'Ja, ta bort' }).click();
    await erik.getByRole('heading', { level: 1, name: 'Mötet är borttaget' }).waitFor();
    expect(pageErrors).toEqual([]);
  }, 180_000);
});

describe('the booking form', () => {
  it('tells a missing personnummer from a wrong one, sends strangers to the start page, and follows the InternalMeeting switch', async () => {
    const erik = await bench.person('erik');
    const meetingId = await bookIn(erik, 2, 'Eriks möte');

    // Spec §5: a missing number says it is missing, a wrong one that it is wrong.
    await erik.goto('/meetings/new');
    await erik.getByRole('button', { name: 'Lägg till deltagare' }).click();
    await erik.locator('#participant-1-role').selectOption('JobSeeker');
    await erik.locator('#participant-1-displayName').fill('Sam Sökande');
    await erik.getByRole('button', { name: 'Spara deltagare' }).click();
    await expect.poll(() => erik.locator('#participant-1-pin-error').textContent()).toBe('Du behöver ange ett personnummer');
    await erik.locator('#participant-1-pin').fill('19900101-2384');
    await erik.getByRole('button', { name: 'Spara deltagare' }).click();
    await expect.poll(() => erik.locator('#participant-1-pin-error').textContent()).toBe('Fältet är ej korrekt ifyllt');
    expect(await erik.locator('#participant-1-role option[value="EmploymentOfficer"]').count()).toBe(1);

    // Spec §8: someone who is not in the meeting goes to the start page from its edit and copy forms.
    const fredrik = await bench.person('fredrik');
    const logged: string[] = [];
    fredrik.on('console', (m) => logged.push(m.text()));
    for (const form of ['edit', 'copy']) {
      await fredrik.goto(`/meetings/${meetingId}/${form}`);
      await fredrik.waitForURL((url) => url.pathname === '/meetings');
      await fredrik.getByRole('heading', { level: 1, name: /^Välkommen/ }).waitFor();
    }
    expect(logged.filter((t) => t === 'Unauthorized').length).toBe(2);

    // Grupper: without InternalMeeting staff cannot invite a colleague; the form does not offer it.
    const anna = await bench.person('anna');
    const off = await apiCall(anna, 'PUT', '/api/admin/groups', { grants: [{ role: 'VIDMedarbetare', features: ['EditMeeting', 'ScreenShare'], isAdmin: false }] });
    expect(off.status, off.body).toBe(200);
    const erikAgain = await bench.person('erik');
    await erikAgain.goto('/meetings/new');
    await erikAgain.getByRole('button', { name: 'Lägg till deltagare' }).click();
    await erikAgain.locator('#participant-1-role option[value="JobSeeker"]').waitFor({ state: 'attached' });
    expect(await erikAgain.locator('#participant-1-role option[value="EmploymentOfficer"]').count()).toBe(0);
    const on = await apiCall(anna, 'PUT', '/api/admin/groups', { grants: [{ role: 'VIDMedarbetare', features: ['EditMeeting', 'InternalMeeting', 'ScreenShare'], isAdmin: false }] });
    expect(on.status, on.body).toBe(200);
  }, 180_000);
});
