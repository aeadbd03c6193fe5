import type { Page } from 'playwright-core';
import { personaByKey, type Persona } from '../../apps/server/src/modules/identity/personas.ts';

export type PersonaKey = Persona['key'];

/**
 * Logs a browser page in through the embedded test IdP, as a person would: our login start, the IdP's
 * 'Testlegitimering' page, a click on the persona's button, and back to `path` with a session cookie.
 * Starting at /api/login/start (rather than waiting for a page guard to send us there) keeps this helper
 * independent of which pages are guarded.
 */
export async function loginAs(page: Page, persona: PersonaKey, path = '/meetings'): Promise<void> {
  await openIdpLoginPage(page, path);
  await Promise.all([
    page.waitForURL((url) => url.pathname + url.search === path, { timeout: 30_000 }),
    page.getByRole('button', { name: personaByKey(persona).button, exact: true }).click(),
  ]);
  await appStarted(page);
}

/** Logs in with any valid personnummer and a name ("Förnamn Efternamn") through the IdP's free form. */
export async function loginWithPin(page: Page, pin: string, name: string, path = '/meetings', roles?: string): Promise<void> {
  await openIdpLoginPage(page, path);
  await page.getByRole('textbox', { name: 'Personnummer' }).fill(pin);
  await page.getByRole('textbox', { name: 'Namn', exact: true }).fill(name);
  if (roles) await page.getByRole('textbox', { name: 'Roller (valfritt)' }).fill(roles);
  await Promise.all([
    page.waitForURL((url) => url.pathname + url.search === path, { timeout: 30_000 }),
    page.getByRole('button', { name: 'Logga in', exact: true }).click(),
  ]);
  await appStarted(page);
}

/**
 * The page's app has started: the first screen its HTML brought (inert, apps/server/src/platform/first-screens.ts) has
 * been replaced by the app's own, so its listeners are there (a test that talks to the page by events, not by
 * clicking, needs this).
 */
export async function appStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('#root > [data-first-screen]'), undefined, { timeout: 30_000 });
}

async function openIdpLoginPage(page: Page, path: string): Promise<void> {
  await page.goto(`/api/login/start?returnUrl=${encodeURIComponent(path)}`);
  await page.getByRole('heading', { level: 1, name: 'Testlegitimering' }).waitFor({ timeout: 30_000 });
}
