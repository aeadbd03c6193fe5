import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { BOOKER_AS_OFFICER, BOOKER_AS_PRESENTER, bookTomorrow } from './support/booking.ts';
import { apiCall, book } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs } from './support/login.ts';
import { screenshot } from './support/screenshots.ts';
import { personaByKey } from '../apps/server/src/modules/identity/personas.ts';

const LINK_INVALID =
  'Länken för registrering fungerar inte. Mötets administratör kan ha stängt av registreringen eller bytt till en ny länk. Be den som bjöd in dig om en ny länk.';
const LINK_MISSING = 'För att registrera dig behöver du länken för registrering från mötets arrangör. Be den som bjöd in dig om länken.';

/** The page's path and query of a sign-up link (the server writes it with its PUBLIC_URL). */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** Opens the auto-registration link logged out, and logs in with e-ID at the identity provider it leads to. */
async function openAutoSignupAndLogIn(page: Page, link: string, persona: 'jonna' | 'fredrik'): Promise<void> {
  await page.goto(`${pathOf(link)}&consent=true&invited=true`);
  await page.getByRole('heading', { level: 1, name: 'Testlegitimering' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: personaByKey(persona).button, exact: true }).click();
}

const signupInfo = (page: Page, link: string) =>
  page.evaluate((query) => fetch(`/api/meeting/validateexternaluser/${query}`).then((r) => r.json()), pathOf(link).replace(/^\/meetings\/([^/]+)\/signup/, '$1'));

/** The sign-up link in the meeting links shown on the page (confirmation page or meeting card): its text is the URL. */
const signupLinkOn = (page: Page) => page.getByRole('link', { name: /\/signup\?code=/ });

/** The admin turns sign-up on in the edit form; the confirmation page then shows the coded link. Answers it. */
async function turnSignupOn(admin: Page, id: string): Promise<string> {
  await admin.goto(`/meetings/${id}/edit`);
  const setting = admin.getByRole('checkbox', { name: 'Tillåt självregistrering via länk' });
  await setting.waitFor();
  expect(await setting.isChecked()).toBe(false); // off unless the admin turns it on
  await setting.check();
  await admin.getByRole('button', { name: 'Spara videomöte' }).first().click();
  await admin.waitForURL((url) => url.pathname === `/meetings/${id}/updated`, { timeout: 30_000 });
  const link = signupLinkOn(admin);
  await link.waitFor();
  const href = (await link.getAttribute('href'))!;
  expect(await link.textContent()).toBe(href);
  expect(pathOf(href)).toMatch(new RegExp(`^/meetings/${id}/signup\\?code=[A-Za-z0-9_-]{22}$`));
  return href;
}

let webcastId = '';
let meetingId = '';
let webcastLink = '';
let meetingLink = '';

const bench = useBench();
beforeAll(async () => {
  const erik = await bench.person('erik');
  webcastId = await bookTomorrow(erik, { title: 'Presentatörer sökes', type: 1, participants: [BOOKER_AS_PRESENTER] });
  meetingId = await bookTomorrow(erik, { title: 'Samtal med självregistrering', type: 0, participants: [BOOKER_AS_OFFICER] });
  await bench.closePages();
});

describe('presenter sign-up', () => {
  it('is off until the admin turns it on: the plain link says it needs the organiser\'s link; the admin then finds the coded link on the confirmation page', async () => {
    // The plain link (no code) says plainly what registration needs, under a heading naming the meeting's type: no
    // error, as nothing went wrong, and no form.
    const jonna = await bench.person('jonna', undefined, `/meetings/${webcastId}/signup`);
    await jonna.getByRole('heading', { level: 1, name: 'Välkommen att registrera dig som presentatör' }).waitFor();
    await jonna.getByText(LINK_MISSING, { exact: true }).waitFor();
    expect(await jonna.getByRole('heading', { name: 'Något gick fel vid registeringen' }).count()).toBe(0);
    expect(await jonna.getByRole('button', { name: 'Registrera mig' }).count()).toBe(0);
    expect(await seriousAxeViolations(jonna)).toEqual([]);
    await screenshot(jonna, 'signup-link-missing', { fullPage: true });
    // Logged out the same, for a conversation meeting.
    const { context: out, page: outPage } = await bench.newPage();
    await outPage.goto(`/meetings/${meetingId}/signup`);
    await outPage.getByRole('heading', { level: 1, name: 'Registrera dig som deltagare i mötet' }).waitFor();
    await outPage.getByText(LINK_MISSING, { exact: true }).waitFor();
    expect(await outPage.getByRole('button', { name: 'Registrera mig' }).count()).toBe(0);
    await screenshot(outPage, 'signup-link-missing-logged-out', { fullPage: true });
    await out.close();

    const erik = await bench.person('erik');
    webcastLink = await turnSignupOn(erik, webcastId);
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await screenshot(erik, 'signup-confirmation-page', { fullPage: true });
    meetingLink = await turnSignupOn(erik, meetingId);
    await bench.closePages();
  });

  it('consent=true&invited=true: logs in with e-ID, registers automatically and lands on the start page', async () => {
    const { context, page } = await bench.newPage();
    await openAutoSignupAndLogIn(page, webcastLink, 'jonna');
    await page.waitForURL((url) => url.pathname === '/meetings', { timeout: 30_000 });
    const info = await signupInfo(page, webcastLink);
    expect(info.data).toMatchObject({ type: 1, selfRegistrations: 1, currentUserRegistered: true });
    await context.close();
  });

  it('the form requires both boxes; with both ticked it signs up directly on the local host', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'karin', pathOf(webcastLink));
    await page.getByRole('heading', { level: 1, name: 'Välkommen att registrera dig som presentatör' }).waitFor();
    await screenshot(page, 'signup-form', { fullPage: true });
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
    expect((await signupInfo(page, webcastLink)).data).toMatchObject({ selfRegistrations: 2, currentUserRegistered: true });
    await context.close();
  });

  it('a second registration lists the server error under the error heading and shows the registered variant', async () => {
    const { context, page } = await bench.newPage();
    await openAutoSignupAndLogIn(page, webcastLink, 'jonna');
    const errors = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Något gick fel vid registeringen' }) });
    await errors.waitFor({ timeout: 30_000 });
    expect(await errors.getByRole('listitem').allTextContents()).toEqual(['Du är redan registrerad till mötet.']);
    await page.getByText('Du är registrerad till mötet.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('staff cannot register themselves: the e-ID requirement is shown', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'anna', pathOf(meetingLink));
    await page.getByRole('heading', { level: 1, name: 'Registrera dig som deltagare i mötet' }).waitFor();
    await page.getByRole('checkbox', { name: /Jag godkänner/ }).check();
    await page.getByRole('checkbox', { name: 'Jag har blivit inbjuden till mötet' }).check();
    await page.getByRole('button', { name: 'Registrera mig' }).click();
    await page.getByRole('heading', { name: 'Något gick fel vid registeringen' }).waitFor();
    await page.getByText('Du behöver logga in med e-legitimation för att registrera dig.').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/meetings/${meetingId}/signup`);
    await context.close();
  });

  it('logged out: the login step goes through the e-ID login and comes back, code and all, to register automatically', async () => {
    const { context, page } = await bench.newPage();
    await page.goto(pathOf(meetingLink));
    await page.getByRole('heading', { level: 1, name: 'Registrering till videomöte' }).waitFor();
    await page.getByRole('checkbox', { name: /Jag godkänner/ }).check();
    await page.getByRole('checkbox', { name: 'Jag har blivit inbjuden till mötet' }).check();
    await page.getByRole('button', { name: 'Registrera mig' }).click();
    await page.getByRole('heading', { level: 1, name: 'Testlegitimering' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: personaByKey('jonna').button, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/meetings', { timeout: 30_000 });
    expect((await signupInfo(page, meetingLink)).data).toMatchObject({ type: 0, currentUserRegistered: true });
    await context.close();
  });

  it('once the meeting has started the page says registration is closed instead of offering the form', async () => {
    // A webcast starting within the minute, sign-up on; the browser's clock is then moved just past its start.
    const erik = await bench.person('erik');
    const { id } = await book(erik, { title: 'Startar strax', type: 1, signupEnabled: true, participants: [BOOKER_AS_PRESENTER] });
    const links = JSON.parse((await apiCall(erik, 'GET', `/api/meeting/${id}/invitations`)).body).data.links as { label: string; url: string }[];
    const link = links.find((l) => l.label === 'Länk för självregistrering')!.url;
    const page = await bench.personWithPin('19121212-1212', 'Tolvan Tolvansson');
    const { startTime } = (await signupInfo(page, link)).data;
    await page.clock.setFixedTime(new Date(new Date(startTime).getTime() + 1000));
    await page.goto(pathOf(link));
    await page.getByText('Mötet har redan startat och går inte längre att registrera sig till.').waitFor();
    expect(await page.getByRole('button', { name: 'Registrera mig' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await bench.closePages();
  });

  it('a conversation meeting with a self-registration shows the registered heading; an unknown meeting its error', async () => {
    const { context, page } = await bench.newPage();
    await openAutoSignupAndLogIn(page, meetingLink, 'fredrik');
    await page.waitForURL((url) => url.pathname === '/meetings', { timeout: 30_000 });
    // Once in the meeting, the plain link (no code) shows the registered variant too.
    await page.goto(`/meetings/${meetingId}/signup`);
    await page.getByRole('heading', { level: 1, name: 'Registrerad som deltagare i mötet' }).waitFor();
    await page.goto(`/meetings/9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11/signup?code=${new URL(meetingLink).searchParams.get('code')}&consent=true&invited=true`);
    await page.getByRole('heading', { name: 'Något gick fel vid registeringen' }).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Mötet finns inte. Kontrollera länken.' }).first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('the admin sees who signed up, renews the link (the old one stops working) and removes a self-registered presenter', async () => {
    const erik = await bench.person('erik');
    // The meeting card on the start page marks the self-registered presenters.
    const card = erik.getByRole('listitem', { name: 'Presentatörer sökes' });
    await card.getByRole('button', { name: /Presentatörer sökes/ }).click();
    await card.getByText('Jonna Sökande (Extern presentatör, självregistrerad)').waitFor();
    await card.getByText('Karin Kompletterande (Extern presentatör, självregistrerad)').waitFor();
    await card.getByText('Möteslänkar').click();
    const before = await signupLinkOn(erik).getAttribute('href');
    expect(before).toBe(webcastLink);
    await erik.getByRole('button', { name: 'Byt länk för självregistrering' }).click();
    await erik.getByText('Den nuvarande länken slutar fungera direkt.', { exact: false }).waitFor();
    await erik.getByRole('button', { name: 'Ja, byt länk' }).click();
    await erik.getByRole('status').filter({ hasText: 'Länken för självregistrering är bytt. Den gamla länken fungerar inte längre.' }).waitFor();
    const renewed = (await signupLinkOn(erik).getAttribute('href'))!;
    expect(renewed).not.toBe(webcastLink);
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await screenshot(erik, 'signup-meeting-card', { fullPage: true });

    // The old link: a clear message and no form; the new one works.
    const tolvan = await bench.personWithPin('19121212-1212', 'Tolvan Tolvansson');
    await tolvan.goto(pathOf(webcastLink));
    await tolvan.getByRole('listitem').filter({ hasText: LINK_INVALID }).waitFor();
    expect(await tolvan.getByRole('button', { name: 'Registrera mig' }).count()).toBe(0);
    await tolvan.goto(pathOf(renewed));
    await tolvan.getByRole('heading', { level: 1, name: 'Välkommen att registrera dig som presentatör' }).waitFor();

    // The edit form marks them too, and removes one like any participant.
    await erik.goto(`/meetings/${webcastId}/edit`);
    const karin = erik.getByRole('listitem', { name: /Karin Kompletterande/ });
    await karin.getByText('Självregistrerad').waitFor();
    await screenshot(erik, 'signup-edit-form', { fullPage: true });
    await karin.getByRole('button', { name: 'Ta bort Karin Kompletterande' }).click();
    await erik.getByRole('dialog').getByText('Byt länk för självregistrering under Möteslänkar om personen inte ska kunna registrera sig igen.', { exact: false }).waitFor();
    await erik.getByRole('button', { name: 'Ja, ta bort' }).click();
    await erik.getByRole('button', { name: 'Spara videomöte' }).first().click();
    await erik.waitForURL((url) => url.pathname === `/meetings/${webcastId}/updated`, { timeout: 30_000 });
    const karinPage = await bench.person('karin');
    expect((await apiCall(karinPage, 'GET', `/api/meeting/${webcastId}`)).status).toBe(404);
    await bench.closePages();
  });
});
