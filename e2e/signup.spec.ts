import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { BOOKER_AS_OFFICER, BOOKER_AS_PRESENTER, bookTomorrow } from './support/booking.ts';
import { book } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { personaByKey } from '../apps/server/src/modules/identity/personas.ts';

/** Opens the auto-registration link logged out, and logs in with e-ID at the identity provider it leads to. */
async function openAutoSignupAndLogIn(page: Page, id: string, persona: 'jonna' | 'fredrik'): Promise<void> {
  await page.goto(`/meetings/${id}/signup?consent=true&invited=true`);
  await page.getByRole('heading', { level: 1, name: 'Testlegitimering' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: personaByKey(persona).button, exact: true }).click();
}

const signupInfo = (page: Page, id: string) =>
  page.evaluate((id) => fetch(`/api/meeting/validateexternaluser/${id}`).then((r) => r.json()), id);

let webcastId = '';
let meetingId = '';

const bench = useBench();
beforeAll(async () => {
  const erik = await bench.person('erik');
  webcastId = await bookTomorrow(erik, { title: 'Signup', type: 1, participants: [BOOKER_AS_PRESENTER] });
  meetingId = await bookTomorrow(erik, { title: 'Signup', type: 0, participants: [BOOKER_AS_OFFICER] });
  await bench.closePages();
});

describe('presenter sign-up', () => {
  it('consent=true&invited=true: logs in with e-ID, registers automatically and lands on the start page', async () => {
    const { context, page } = await bench.newPage();
    await openAutoSignupAndLogIn(page, webcastId, 'jonna');
    await page.waitForURL((url) => url.pathname === '/meetings', { timeout: 30_000 });
    const info = await signupInfo(page, webcastId);
    expect(info.data).toMatchObject({ type: 1, selfRegistrations: 1, currentUserRegistered: true });
    await context.close();
  });

  it('the form requires both boxes; with both ticked it signs up directly on the local host', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'karin', `/meetings/${webcastId}/signup`);
    await page.getByRole('heading', { level: 1, name: 'Välkommen att registrera dig som presentatör' }).waitFor();
    await page.getByRole('button', { name: 'Registrera mig' }).click();
    await page.getByText('Du behöver godkänna hanteringen av personuppgifter.').waitFor();
    await page.getByText('Du behöver bekräfta att du har blivit inbjuden till mötet.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('checkbox', { name: /Jag godkänner/ }).check();
    await page.getByRole('button', { name: 'Registrera mig' }).click();
    expect(await page.getByText('Du behöver godkänna hanteringen av personuppgifter.').count()).toBe(0);
    await page.getByText('Du behöver bekräfta att du har blivit inbjuden till mötet.').waitFor();
    await page.getByRole('checkbox', { name: 'Jag har blivit inbjuden till mötet' }).check();
    await page.getByRole('button', { name: 'Registrera mig' }).click();
    await page.waitForURL((url) => url.pathname === '/meetings', { timeout: 30_000 });
    expect((await signupInfo(page, webcastId)).data).toMatchObject({ selfRegistrations: 2, currentUserRegistered: true });
    await context.close();
  });

  it('a second registration lists the server error under the error heading and shows the registered variant', async () => {
    const { context, page } = await bench.newPage();
    await openAutoSignupAndLogIn(page, webcastId, 'jonna');
    const errors = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Något gick fel vid registeringen' }) });
    await errors.waitFor({ timeout: 30_000 });
    expect(await errors.getByRole('listitem').allTextContents()).toEqual(['Du är redan registrerad till mötet.']);
    await page.getByText('Du är registrerad till mötet.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('staff cannot register themselves: the e-ID requirement is shown', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'anna', `/meetings/${meetingId}/signup`);
    await page.getByRole('heading', { level: 1, name: 'Registrera dig som deltagare i mötet' }).waitFor();
    await page.getByRole('checkbox', { name: /Jag godkänner/ }).check();
    await page.getByRole('checkbox', { name: 'Jag har blivit inbjuden till mötet' }).check();
    await page.getByRole('button', { name: 'Registrera mig' }).click();
    await page.getByRole('heading', { name: 'Något gick fel vid registeringen' }).waitFor();
    await page.getByText('Du behöver logga in med e-legitimation för att registrera dig.').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/meetings/${meetingId}/signup`);
    await context.close();
  });

  it('logged out: the login step goes through the e-ID login and comes back to register automatically', async () => {
    const { context, page } = await bench.newPage();
    await page.goto(`/meetings/${meetingId}/signup`);
    await page.getByRole('heading', { level: 1, name: 'Registrering till videomöte' }).waitFor();
    await page.getByRole('checkbox', { name: /Jag godkänner/ }).check();
    await page.getByRole('checkbox', { name: 'Jag har blivit inbjuden till mötet' }).check();
    await page.getByRole('button', { name: 'Registrera mig' }).click();
    await page.getByRole('heading', { level: 1, name: 'Testlegitimering' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: personaByKey('jonna').button, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/meetings', { timeout: 30_000 });
    expect((await signupInfo(page, meetingId)).data).toMatchObject({ type: 0, currentUserRegistered: true });
    await context.close();
  });

  it('once the meeting has started the page says registration is closed instead of offering the form', async () => {
    // A webcast starting within the minute; the browser's clock is then moved just past its start.
    const erik = await bench.person('erik');
    const { id } = await book(erik, { title: 'Startar strax', type: 1, participants: [BOOKER_AS_PRESENTER] });
    const page = await bench.personWithPin('19121212-1212', 'Tolvan Tolvansson');
    const { startTime } = (await signupInfo(page, id)).data;
    await page.clock.setFixedTime(new Date(new Date(startTime).getTime() + 1000));
    await page.goto(`/meetings/${id}/signup`);
    await page.getByText('Mötet har redan startat och går inte längre att registrera sig till.').waitFor();
    expect(await page.getByRole('button', { name: 'Registrera mig' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await bench.closePages();
  });

  it('a conversation meeting with a self-registration shows the registered heading; an unknown meeting its error', async () => {
    const { context, page } = await bench.newPage();
    await openAutoSignupAndLogIn(page, meetingId, 'fredrik');
    await page.waitForURL((url) => url.pathname === '/meetings', { timeout: 30_000 });
    await page.goto(`/meetings/${meetingId}/signup`);
    await page.getByRole('heading', { level: 1, name: 'Registrerad som deltagare i mötet' }).waitFor();
    await page.goto('/meetings/9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11/signup?consent=true&invited=true');
    await page.getByRole('heading', { name: 'Något gick fel vid registeringen' }).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Mötet finns inte. Kontrollera länken.' }).first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
