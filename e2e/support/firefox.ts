import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { personaByKey } from '../../apps/server/src/modules/identity/personas.ts';
import { axeSource, runAxeInPage, seriousOnly, type AxeViolation } from './axe.ts';
import type { PersonaKey } from './login.ts';
import { mediaTotalsInPage, RECORD_PEER_CONNECTIONS, type MediaTotals } from './peer-connections.ts';

/**
 * Debian's unmodified Firefox ESR, driven by puppeteer-core over WebDriver BiDi (Playwright needs its own patched
 * Firefox, which cannot be downloaded here). puppeteer-core never downloads a browser: it runs this one.
 */
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * What a headless Firefox needs for a call inside the test network namespace. Media there flows
 * 127.0.0.2 <-> 127.0.0.2 (scripts/in-netns.sh), and Firefox leaves loopback addresses out of ICE and hides host
 * addresses behind mDNS names unless told otherwise.
 */
export const FIREFOX_PREFS: Record<string, unknown> = {
  // Fake camera (frames changing colour) and microphone (a tone), without a permission prompt.
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
  // ICE on 127.0.0.2, with plain host candidates (no mDNS names: nothing here would resolve them).
  'media.peerconnection.ice.loopback': true,
  'media.peerconnection.ice.obfuscate_host_addresses': false,
  // Camera and microphone allowed for every site, as for a person who said yes to the question. Firefox gathers ICE
  // candidates on every interface only for a page with that permission (else only on the default route's, and the
  // namespace has no route at all): a visitor who only watches needs it too.
  'permissions.default.camera': 1,
  'permissions.default.microphone': 1,
  // Remote audio and video play without a click of their own, as they do after the click on "Anslut till mötet".
  'media.autoplay.default': 0,
  'media.autoplay.blocking_policy': 0,
  // No sound card or sound server here: without one Firefox never starts an AudioContext (the lobby's level meter),
  // so its audio goes to the mock output Firefox's own media tests use, which runs on a clock of its own.
  'media.cubeb.force_mock_context': true,
  // No outside traffic: no captive-portal, connectivity or telemetry probes.
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'toolkit.telemetry.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'intl.accept_languages': 'sv-SE, sv',
};

export async function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: FIREFOX_PREFS,
    env: { ...process.env, TZ: 'Europe/Stockholm' },
  });
}

/** A fresh page in a browser context of its own (its own cookies), 1280×800, recording its peer connections. */
export async function newFirefoxPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.evaluateOnNewDocument(RECORD_PEER_CONNECTIONS);
  return { context, page };
}

/** An accessible-name selector (puppeteer's ARIA query, through BiDi's accessibility locator). */
export const aria = (name: string, role?: string): string => `::-p-aria([name=${JSON.stringify(name)}]${role ? `[role="${role}"]` : ''})`;

/** How many elements `selector` finds now. */
export async function count(page: Page, selector: string): Promise<number> {
  return (await page.$$(selector)).length;
}

/** The path and query of the page's address. */
export const pathOf = (page: Page): string => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** Logs the page in through the embedded test IdP as a persona, as a person would, and lands on `path`. */
export async function firefoxLoginAs(page: Page, baseUrl: string, persona: PersonaKey, path: string): Promise<void> {
  await page.goto(`${baseUrl}/api/login/start?returnUrl=${encodeURIComponent(path)}`);
  await page.locator(aria('Testlegitimering', 'heading')).wait();
  await page.locator(aria(personaByKey(persona).button, 'button')).click();
  await expect.poll(() => pathOf(page), { timeout: 30_000 }).toBe(path);
}

export async function firefoxMediaTotals(page: Page): Promise<MediaTotals> {
  return page.evaluate(mediaTotalsInPage);
}

/** axe-core's serious and critical WCAG 2.1 A/AA violations (its source evaluated by BiDi, which our CSP does not block). */
export async function firefoxAxeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return seriousOnly(await page.evaluate(runAxeInPage));
}
