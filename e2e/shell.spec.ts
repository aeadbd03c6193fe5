import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newUserPage } from './support/browser.ts';
import { useBench } from './support/bench.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs, type PersonaKey } from './support/login.ts';

const bench = useBench();

const ADMIN_LINKS = ['Grupper', 'AppSettings', 'Statistik', 'Felsökning', 'Systemmeddelanden'];

async function h1(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { level: 1 });
  await heading.first().waitFor();
  return (await heading.first().textContent())?.trim() ?? '';
}

async function menuLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Huvudmeny' });
  await nav.waitFor();
  return (await nav.getByRole('link').allTextContents()).map((s) => s.trim());
}

describe('shell per persona', () => {
  it.each([
    ['anna', true, false],
    ['erik', false, false],
    ['karin', false, false],
    ['fredrik', false, false],
    ['jonna', false, true],
  ] as const)('%s logs in through the IdP and sees the menu the role allows', async (persona: PersonaKey, admin, logout) => {
    const { context, page } = await bench.newPage();
    await loginAs(page, persona, '/usersupport');
    expect(await h1(page)).toBe('Användarstöd');
    await page.getByRole('button', { name: 'Meny' }).click();
    expect(await page.getByRole('button', { name: 'Meny' }).getAttribute('aria-expanded')).toBe('true');
    const links = await menuLinks(page);
    expect(links).toContain('Mina möten');
    expect(links).toContain('Användarstöd');
    for (const l of ['Administration', ...ADMIN_LINKS]) expect(links.includes(l)).toBe(admin);
    const nav = page.getByRole('navigation', { name: 'Huvudmeny' });
    expect((await nav.boundingBox())?.width).toBe(320);
    expect(await nav.getByText('Version 0.1.0').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Logga ut' }).count()).toBe(logout ? 1 : 0);
    if (admin) expect(await seriousAxeViolations(page)).toEqual([]);
    // The menu closes when the navigation ends.
    await nav.getByRole('link', { name: admin ? 'Grupper' : 'Användarstöd' }).click();
    if (admin) await page.waitForURL('**/admin/groups');
    await nav.waitFor({ state: 'hidden' });
    expect(await page.getByRole('button', { name: 'Meny' }).getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('hides Mina möten and the external Logga ut in the webcast variant', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'jonna', '/usersupport');
    await context.addCookies([{ name: 'authenticationvariant', value: 'Webcast', url: bench.server.url }]);
    await page.reload();
    await h1(page);
    await page.getByRole('button', { name: 'Meny' }).click();
    const links = await menuLinks(page);
    expect(links).not.toContain('Mina möten');
    expect(links).toContain('Användarstöd');
    expect(await page.getByRole('button', { name: 'Logga ut' }).count()).toBe(0);
    // The meetings area needs a login through the identity provider: a webcast-type session goes to the end page.
    await page.goto('/meetings');
    await page.waitForURL('**/publicaccessend');
    await context.close();
  });

  it('the external user logs out (a POST) through the IdP and ends on the agency home page, not its login', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'jonna', '/meetings');
    // The embedded test IdP is active here: every page says so, above the header.
    const banner = page.getByRole('complementary', { name: 'Testsystem' });
    expect(await banner.textContent()).toContain('Testinloggning – inte för riktiga möten');
    const [bannerBox, headerBox] = [await banner.boundingBox(), await page.getByRole('banner').boundingBox()];
    expect(bannerBox!.y + bannerBox!.height).toBeLessThanOrEqual(headerBox!.y + 1);
    const logoutMethods: string[] = [];
    page.on('request', (r) => void (new URL(r.url()).pathname === '/api/login/logout' && logoutMethods.push(r.method())));
    await page.getByRole('button', { name: 'Logga ut' }).click();
    // IdP logout, then the agency home (AGENCY_HOME_URL, by default the user-support page), signed out.
    await page.waitForURL((url) => url.pathname === '/usersupport', { timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: 'Användarstöd' }).waitFor({ timeout: 30_000 });
    expect(logoutMethods).toEqual(['POST']);
    await banner.waitFor();
    const status = await page.evaluate(async () => (await fetch('/api/login/getuserdata')).status);
    expect(status).toBe(401);
    // A cross-site GET link no longer logs anyone out: the route is a POST with the anti-forgery token.
    await loginAs(page, 'jonna', '/usersupport');
    expect(await page.evaluate(async () => (await fetch('/api/login/logout')).status)).toBe(404);
    expect(
      await page.evaluate(async () => (await fetch('/api/login/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"data":null}' })).status),
    ).toBe(403);
    expect(await page.evaluate(async () => (await fetch('/api/login/getuserdata')).status)).toBe(200);
    await context.close();
  });

  it('footer shows service-desk hours and the contacts of the role', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'erik', '/usersupport');
    const footer = page.getByRole('contentinfo');
    await footer.waitFor();
    // Until the app knows who is signed in (a request after the page's start) the footer lists the public contacts.
    await expect.poll(() => footer.textContent()).toContain('Arbetssökande ringer');
    const text = await footer.textContent();
    expect(text).toContain('vardagar 08:00-16:30');
    expect(text).toContain('Gör en felanmälan');
    await context.close();
    const anon = await bench.newPage();
    await anon.page.goto('/personaldata');
    // Read once the app has asked who is signed in, so that a footer that would change for the visitor has.
    await anon.page.waitForLoadState('networkidle');
    const anonText = await anon.page.getByRole('contentinfo').textContent();
    expect(anonText).toContain('vardagar 08:00-16:30');
    expect(anonText).not.toContain('Arbetssökande ringer');
    expect(anonText).toContain('E-post');
    await anon.context.close();
  });
});

describe('cookie notice', () => {
  it('shows until accepted and stores acceptcookies', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/personaldata');
    const accept = page.getByRole('button', { name: 'Jag förstår' });
    await accept.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await accept.click();
    await accept.waitFor({ state: 'detached' });
    expect((await context.cookies()).find((c) => c.name === 'acceptcookies')?.value).toBe('true');
    await page.reload();
    await h1(page);
    expect(await page.getByRole('button', { name: 'Jag förstår' }).count()).toBe(0);
    await context.close();
  });
});

describe('errors', () => {
  it('an unknown route shows the not-found page', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/finns/inte');
    expect(await h1(page)).toBe('Sidan hittades inte');
    expect(await page.title()).toBe('Videomöte - Sidan hittades inte');
    expect(await page.getByRole('link', { name: 'Till startsidan' }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it.each([
    [401, 'Du är inte inloggad'],
    [403, 'Du har inte behörighet'],
    [404, 'Sidan hittades inte'],
    [410, 'Sidan finns inte längre'],
    [504, 'Tjänsten svarar inte'],
    [500, 'Något gick fel'],
    [502, 'Något gick fel'],
  ])('/error?status=%i shows its page', async (status, heading) => {
    const { context, page } = await bench.newPage();
    await page.goto(`/error?status=${status}`);
    expect(await h1(page)).toBe(heading);
    expect(await page.getByRole('link', { name: 'Till startsidan' }).count()).toBe(1);
    if (status === 401 || status === 504) expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('an API error above 400 lands on /error with its status', async () => {
    const { context, page } = await bench.newPage();
    // A call that does not handle its own failure (the meeting lists show theirs in place, with 'Försök igen').
    await loginAs(page, 'anna', '/usersupport');
    await page.route('**/api/message/all', (route) =>
      route.fulfill({ status: 504, contentType: 'application/json', body: JSON.stringify({ name: 'GatewayTimeout', message: 'Timeout', statusCode: 504 }) }),
    );
    await page.goto('/admin/systemmeddelanden');
    await page.waitForURL('**/error?status=504');
    // The address changes before the new page has rendered: the heading is read until it is the new page's.
    await expect.poll(() => h1(page)).toBe('Tjänsten svarar inte');
    await context.close();
  });
});

describe('information pages', () => {
  it.each([
    ['/personaldata', 'Så här hanterar vi personuppgifter i Videomöte', 'Videomöte - Personuppgifter'],
    ['/accessability', 'Tillgänglighetsredogörelse för Videomöte', 'Videomöte - Tillgänglighetsredogörelse'],
    ['/usersupport', 'Användarstöd', 'Videomöte - Användarstöd'],
    ['/usersupport/troubleshooting', 'Felsökning', 'Videomöte - Felsökning'],
    ['/usersupport/whatisavideomeeting', 'Vad är ett videomöte?', 'Videomöte - Vad är ett videomöte?'],
    ['/logged-out', 'Automatisk utloggning', 'Videomöte - Automatisk utloggning'],
  ])('%s has its heading and title, no serious axe violations, no console noise and fits a phone', async (path, heading, title) => {
    const { context, page } = await bench.newPage();
    // Logged out: the start-up session probe must not show up as a failed (401) request in the console.
    const logged: string[] = [];
    page.on('console', (m) => ['error', 'warning'].includes(m.type()) && logged.push(`${m.type()}: ${m.text()}`));
    // Every title the page is given on the way, the app's start included: its own only, never the default between
    // the HTML's and the page's (a screen reader announces the change; this test once read 'Videomöte' there).
    await context.addInitScript(() => {
      const titles: string[] = [];
      (window as unknown as { __titles: string[] }).__titles = titles;
      const own = Object.getOwnPropertyDescriptor(Document.prototype, 'title')!;
      Object.defineProperty(Document.prototype, 'title', {
        ...own,
        set(this: Document, value: string) {
          titles.push(value);
          own.set!.call(this, value);
        },
      });
    });
    await page.goto(path);
    expect(await h1(page)).toBe(heading);
    expect(await page.title()).toBe(title);
    // The app has taken the server-drawn first screen over (where there was one).
    await page.waitForFunction(() => !document.querySelector('[data-first-screen]'));
    await expect.poll(() => page.title()).toBe(title);
    expect(await page.evaluate(() => (window as unknown as { __titles: string[] }).__titles)).not.toContain('Videomöte');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(logged).toEqual([]);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await context.close();
  });

  it('the personal data page has every section and the retention wording', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/personaldata');
    await h1(page);
    const h2s = (await page.getByRole('heading', { level: 2 }).allTextContents()).map((s) => s.trim());
    for (const s of ['Personuppgiftsansvarig', 'Så hanterar vi dina personuppgifter', 'Vilka personuppgifter vi behandlar', 'Hur länge vi sparar uppgifterna', 'Överföring av uppgifter', 'Dina rättigheter, dataskyddsombud och klagomål']) {
      expect(h2s).toContain(s);
    }
    const text = await page.getByRole('main').textContent();
    expect(text).toContain('raderas när samtalet avslutas');
    expect(text).toContain('Ditt personnummer raderas efter att mötet har avslutats');
    expect(text).toContain('sparas tills mötet har hållits');
    expect(text).toContain('till midnatt samma dag');
    await context.close();
  });

  it('troubleshooting opens at #user-media', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/usersupport/troubleshooting#user-media');
    await page.locator('#user-media').waitFor();
    expect(await page.locator('#user-media').textContent()).toContain('Tillåt kamera och mikrofon');
    await page.waitForFunction(() => document.activeElement?.id === 'user-media');
    await context.close();
  });

  it('the help text gives 08:00–16:00 and 10 Mbit/s', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/usersupport/whatisavideomeeting');
    const text = await page.getByRole('main').textContent();
    expect(text).toContain('08:00–16:00');
    expect(text).toContain('minst 10 Mbit/s upp och ner');
    await context.close();
  });

  it('an accessibility problem can be reported, and the admin can read it', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/accessability');
    await page.getByRole('button', { name: 'Skicka rapporten' }).click();
    await page.getByRole('alert').filter({ hasText: 'Komplettera följande uppgifter' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Komplettera följande uppgifter'));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('textbox', { name: 'Beskriv problemet' }).fill('Fokus syns inte i kalendern');
    await page.getByRole('textbox', { name: 'Sida eller del av tjänsten (valfritt)' }).fill('Skapa möte');
    await page.getByRole('button', { name: 'Skicka rapporten' }).click();
    await page.getByText('Tack för din rapport!').waitFor();
    await context.close();

    const admin = await bench.newPage();
    await loginAs(admin.page, 'anna', '/usersupport');
    const reports = await admin.page.evaluate(async () => (await (await fetch('/api/feedback/accessibility')).json()).data);
    expect(reports[0]).toMatchObject({ description: 'Fokus syns inte i kalendern', pageUrl: 'Skapa möte', reporterKind: 'none' });
    await admin.page.goto('/accessability');
    await admin.page.getByRole('link', { name: 'Visa inkomna rapporter om tillgänglighet' }).click();
    await admin.page.waitForURL('**/admin/tillganglighet');
    await admin.page.getByRole('cell', { name: 'Fokus syns inte i kalendern' }).waitFor();
    expect(await seriousAxeViolations(admin.page)).toEqual([]);
    await admin.context.close();
  });
});

/**
 * The countdown starts when the page's start-up calls are done (the watcher waits for the config; every API answer
 * restarts it). Moving the clock before then would move it for nothing: on a busy machine the warning never came.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
}

describe('inactivity', () => {
  let shortServer: RunningServer;
  beforeAll(async () => {
    shortServer = await startServer({ SESSION_MINUTES: '6' });
  });
  afterAll(async () => shortServer?.stop());

  it('warns at 5 minutes left, Fortsätt keeps the session, and at 0 the user lands on /logged-out', async () => {
    const { context, page } = await newUserPage(bench.browser, shortServer.url);
    // The browser's clock is ours: minutes pass in milliseconds. The server keeps real time.
    await page.clock.install();
    await loginAs(page, 'karin', '/usersupport');
    await h1(page);
    await settled(page);
    await page.clock.fastForward('00:50');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.clock.fastForward('00:20');
    const warning = page.getByRole('alertdialog', { name: 'Du loggas snart ut' });
    await warning.waitFor();
    expect(await warning.textContent()).toContain('5 minuter');
    // Karin is not an employee: she is offered 'Logga ut' too.
    expect(await warning.getByRole('button', { name: 'Logga ut' }).count()).toBe(1);
    // The safe choice has focus, so Enter keeps the session.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Fortsätt');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The server slides a session at most every 15 s of its (real) time; in life the warning comes 55 minutes
    // after the last slide, here the browser's minutes were seconds, so let the server's step pass first.
    await page.waitForTimeout(16_000);
    await warning.getByRole('button', { name: 'Fortsätt' }).click();
    await warning.waitFor({ state: 'hidden' });
    // The keep-alive restarted the countdown: 30 s later there are 5½ minutes left, no warning...
    await page.clock.fastForward('00:30');
    await page.waitForTimeout(1500);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    // ...and 40 s after that, under 5 minutes: the warning again.
    await page.clock.fastForward('00:40');
    await warning.waitFor();
    await page.clock.fastForward('05:01');
    await page.waitForURL('**/logged-out');
    // The address changes before the new page has rendered (CI at load: the old heading read once).
    await expect.poll(() => h1(page)).toBe('Automatisk utloggning');
    expect(await page.getByRole('link', { name: 'Logga in igen' }).count()).toBe(1);
    const status = await page.evaluate(async () => (await fetch('/api/login/getuserdata')).status);
    expect(status).toBe(401);
    await context.close();
  });

  it('employees get no secondary Logga ut in the warning', async () => {
    const { context, page } = await newUserPage(bench.browser, shortServer.url);
    await page.clock.install();
    await loginAs(page, 'erik', '/usersupport');
    await h1(page);
    await settled(page);
    await page.clock.fastForward('01:10');
    const warning = page.getByRole('alertdialog', { name: 'Du loggas snart ut' });
    await warning.waitFor();
    expect(await warning.getByRole('button', { name: 'Logga ut' }).count()).toBe(0);
    expect(await warning.getByRole('button', { name: 'Fortsätt' }).count()).toBe(1);
    await context.close();
  });
});
