import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every test browser needs here: headless, no outside traffic, fake camera and microphone. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
];

/** `fakeUi: false` leaves permission prompts to the test (to deny camera access, for instance). */
export async function launchBrowser(options: { fakeUi?: boolean; args?: string[] } = {}): Promise<Browser> {
  const args = [...CHROMIUM_ARGS, ...(options.args ?? [])];
  if (options.fakeUi !== false) args.push('--use-fake-ui-for-media-stream');
  return chromium.launch({ executablePath: CHROMIUM, args, headless: true });
}

export interface UserPageOptions {
  permissions?: string[];
  viewport?: { width: number; height: number };
  /** A touch screen as well as a mouse (a tablet, or a laptop with one). */
  hasTouch?: boolean;
  /** The browser's own language (`navigator.languages`); Swedish unless a test needs another. */
  locale?: string;
}

export async function newUserPage(browser: Browser, baseURL: string, options: UserPageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    bypassCSP: true, // lets axe-core be injected under our strict Content-Security-Policy
    locale: options.locale ?? 'sv-SE',
    timezoneId: 'Europe/Stockholm',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    permissions: options.permissions ?? ['camera', 'microphone'],
    hasTouch: options.hasTouch ?? false,
  });
  const page = await context.newPage();
  return { context, page };
}
