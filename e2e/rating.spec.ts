import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { ERIK_WITH_JONNA, seededDataDir } from './support/seed.ts';
import { giveConsent } from './support/call.ts';

/**
 * The call rating dialog. The conference dispatches `rate-call` when the user leaves; here the test dispatches
 * it, for a meeting Jonna took part in, and checks what reached the server through the admin's Felsökning API.
 */
// Three meetings Jonna is in, going on now: a person rates each meeting once (a second rating is refused).
let meetingId = '';
let secondMeetingId = '';
let callMeetingId = '';

const bench = useBench(() =>
  seededDataDir(async (insert) => {
    const now = (title: string) =>
      insert({ title, start: new Date(Date.now() - 30 * 60_000), end: new Date(Date.now() + 30 * 60_000), participants: ERIK_WITH_JONNA });
    meetingId = (await now('Samtal')).id;
    secondMeetingId = (await now('Uppföljning')).id;
    callMeetingId = (await now('Samtal med video')).id;
  }),
);

const rateCall = (page: Page, id: string) =>
  page.evaluate((meeting) => window.dispatchEvent(new CustomEvent('rate-call', { detail: { meetingId: meeting } })), id);

const dialog = (page: Page) => page.getByRole('dialog', { name: /Hur var samtalet\?|Tack för ditt svar!/ });

async function ratingsOnServer(admin: Page, id = meetingId): Promise<{ count: number; average: number | null; comments: { callQuality: number; comment: string }[] }> {
  return admin.evaluate(async (meeting) => (await (await fetch(`/api/admin/troubleshoot?q=${meeting}`)).json()).data.ratings, id);
}

describe('call rating dialog', () => {
  it('high rating sends and closes; low rating sends and shows help; comment without rating shows the error; closing resets', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'jonna', '/usersupport');
    await page.getByRole('heading', { level: 1, name: 'Användarstöd' }).waitFor();
    const anna = await bench.newPage();
    await loginAs(anna.page, 'anna', '/admin');

    // Opens on the event, with five labelled stars, 3 chosen by default.
    await rateCall(page, meetingId);
    const d = dialog(page);
    await d.waitFor();
    expect(await d.getByRole('radio').count()).toBe(5);
    for (const name of ['1 Dålig', '2 Mindre bra', '3 Bra', '4 Väldigt bra', '5 Mycket bra']) expect(await d.getByRole('radio', { name, exact: true }).count()).toBe(1);
    expect(await d.getByRole('radio', { name: '3 Bra' }).isChecked()).toBe(true);
    expect(await d.getByRole('group', { name: 'Hur upplevde du ljud- och bildkvaliteten?' }).count()).toBe(1);
    expect(await d.getByRole('textbox', { name: 'Kommentar (frivilligt)' }).getAttribute('maxlength')).toBe('4000');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // 1. Above 2: sends and closes.
    await d.getByRole('radio', { name: '4 Väldigt bra' }).check();
    await d.getByRole('textbox', { name: 'Kommentar (frivilligt)' }).fill('Bra bild');
    await d.getByRole('button', { name: 'Skicka' }).click();
    await d.waitFor({ state: 'hidden' });
    expect(await ratingsOnServer(anna.page)).toMatchObject({ count: 1, average: 4, comments: [{ callQuality: 4, comment: 'Bra bild' }] });

    // The same meeting again: one rating per participant, the dialog says so and nothing more is stored.
    await rateCall(page, meetingId);
    await d.waitFor();
    await d.getByRole('radio', { name: '1 Dålig' }).check();
    await d.getByRole('button', { name: 'Skicka' }).click();
    await d.getByRole('alert').getByText('Du har redan betygsatt det här mötet. Tack för ditt svar!').waitFor();
    expect(await ratingsOnServer(anna.page)).toMatchObject({ count: 1, average: 4 });
    await page.keyboard.press('Escape');
    await d.waitFor({ state: 'hidden' });

    // 2. Two or below (another meeting): sends and shows the troubleshooting and fault-report help.
    await rateCall(page, secondMeetingId);
    await d.waitFor();
    expect(await d.getByRole('radio', { name: '3 Bra' }).isChecked()).toBe(true); // reset after closing
    expect(await d.getByRole('textbox', { name: 'Kommentar (frivilligt)' }).inputValue()).toBe('');
    await d.getByRole('radio', { name: '2 Mindre bra' }).check();
    await d.getByRole('button', { name: 'Skicka' }).click();
    await page.getByRole('dialog', { name: 'Tack för ditt svar!' }).waitFor();
    expect(await d.getByRole('link', { name: 'Felsök ljud och bild' }).getAttribute('href')).toBe('/usersupport/troubleshooting');
    expect(await d.getByRole('heading', { name: 'Felanmälan' }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await ratingsOnServer(anna.page, secondMeetingId)).toMatchObject({ count: 1, average: 2 });
    await d.getByRole('button', { name: 'Stäng' }).first().click();
    await d.waitFor({ state: 'hidden' });

    // 3. A comment without a rating: the error, nothing sent; neither → just closes.
    await rateCall(page, meetingId);
    await d.waitFor();
    await d.getByRole('button', { name: 'Rensa betyg' }).click();
    expect(await d.getByRole('radio', { checked: true }).count()).toBe(0);
    await d.getByRole('textbox', { name: 'Kommentar (frivilligt)' }).fill('Ljudet hackade');
    await d.getByRole('button', { name: 'Skicka' }).click();
    await d.getByRole('alert').getByText('Du måste ange ett betyg för att få skicka in.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await d.getByRole('textbox', { name: 'Kommentar (frivilligt)' }).fill('');
    await d.getByRole('button', { name: 'Skicka' }).click();
    await d.waitFor({ state: 'hidden' });
    expect(await ratingsOnServer(anna.page)).toMatchObject({ count: 1, average: 4 });

    // Escape closes too, and resets.
    await rateCall(page, meetingId);
    await d.waitFor();
    await d.getByRole('radio', { name: '5 Mycket bra' }).check();
    await page.keyboard.press('Escape');
    await d.waitFor({ state: 'hidden' });
    await rateCall(page, meetingId);
    await d.waitFor();
    expect(await d.getByRole('radio', { name: '3 Bra' }).isChecked()).toBe(true);

    await context.close();
    await anna.context.close();
  });

  it('opens after really leaving a call: the conference hangs up, the shell shows the dialog for that meeting', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'jonna', '/meetings');
    expect(await giveConsent(page, callMeetingId)).toBe(200);
    await page.goto(`/meetings/${callMeetingId}/conference`);
    await expect
      .poll(() => page.locator('.conference').getAttribute('data-connection-status', { timeout: 1_000 }).catch(() => 'absent'), { timeout: 45_000 })
      .toBe('connected');
    await page.getByRole('button', { name: /Lägg på|Lämna samtalet/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).not.toContain('/conference');
    const d = dialog(page);
    await d.waitFor({ timeout: 15_000 });
    expect(await d.getByRole('radio', { name: '3 Bra' }).isChecked()).toBe(true);
    await d.getByRole('radio', { name: '5 Mycket bra' }).check();
    await d.getByRole('button', { name: 'Skicka' }).click();
    await d.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('does not open when an administrator has switched call rating off in AppSettings', async () => {
    const anna = await bench.newPage();
    await loginAs(anna.page, 'anna', '/admin/appsettings');
    const toggle = anna.page.getByRole('switch', { name: 'Betygsättning av samtal' });
    await toggle.uncheck();
    await anna.page.getByRole('button', { name: 'Spara' }).click();
    await anna.page.getByText('Inställningarna är sparade.').waitFor();

    const { context, page } = await bench.newPage();
    await loginAs(page, 'jonna', '/usersupport');
    await page.getByRole('heading', { level: 1, name: 'Användarstöd' }).waitFor();
    const flagsRead = page.waitForResponse((r) => r.url().endsWith('/api/featureflags'));
    await rateCall(page, meetingId);
    await flagsRead;
    await page.waitForTimeout(300);
    expect(await dialog(page).isVisible()).toBe(false);

    await toggle.check();
    await anna.page.getByRole('button', { name: 'Spara' }).click();
    await anna.page.getByText('Inställningarna är sparade.').waitFor();
    await rateCall(page, meetingId);
    await dialog(page).waitFor();
    await context.close();
    await anna.context.close();
  });

  it('a rating for a meeting the user was not in is refused by the server and the dialog says so', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'karin', '/usersupport');
    await rateCall(page, meetingId);
    const d = dialog(page);
    await d.waitFor();
    await d.getByRole('button', { name: 'Skicka' }).click();
    await d.getByRole('alert').getByText('Du kan bara betygsätta möten som du har deltagit i.').waitFor();
    await context.close();
  });
});
