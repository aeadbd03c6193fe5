import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newUserPage } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { loginAs, type PersonaKey } from './support/login.ts';

// The browser half of the fuzz test (apps/server/src/security/fuzz.api.test.ts): markup stored through the API, in a
// system message and a meeting title, shows as the characters typed on the home page and runs nothing.
// (Chat messages are covered the same way in chat.spec.ts.)
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 100 } } });

const MESSAGE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> Underhåll';
const TITLE = '<svg onload="window.__pwned=3">Möte';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function as(key: PersonaKey): Promise<Page> {
  const { page } = await newUserPage(browser, server.url);
  await loginAs(page, key, '/meetings');
  return page;
}

/** An API call from the page, with its anti-forgery cookie, as the web app makes it. */
function post(page: Page, url: string, data: unknown): Promise<{ status: number; body: string }> {
  return page.evaluate(
    async ([u, d]) => {
      const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const res = await fetch(u as string, { method: 'POST', headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrf }, body: JSON.stringify({ data: d }) });
      return { status: res.status, body: await res.text() };
    },
    [url, data] as const,
  );
}

describe('hostile stored data in the browser', () => {
  it('a system message and a meeting title full of markup show as text and run nothing', async () => {
    const anna = await as('anna');
    const now = Date.now();
    const message = await post(anna, '/api/message', {
      type: 1,
      value: MESSAGE,
      startTime: new Date(now - 3600_000).toISOString(),
      endTime: new Date(now + 3600_000).toISOString(),
      showExternal: true,
      showInternal: true,
      showKauser: true,
    });
    expect(message.status, message.body).toBe(200);

    const erik = await as('erik');
    const start = new Date(now + 3600_000);
    start.setMinutes(0, 0, 0);
    const booked = await post(erik, '/api/meeting', {
      title: TITLE,
      type: 0,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 1800_000).toISOString(),
      participants: [{ currentUser: true, role: 'EmploymentOfficer', isAdmin: true }],
    });
    expect(booked.status, booked.body).toBe(200);
    const id = (JSON.parse(booked.body) as { data: { id: string } }).data.id;

    // The home page shows both: the banner and today's meeting in the list.
    await erik.goto('/meetings');
    await expect.poll(() => erik.getByText(MESSAGE, { exact: false }).count()).toBeGreaterThan(0);
    await expect.poll(() => erik.getByText(TITLE, { exact: false }).count()).toBeGreaterThan(0);
    // The confirmation page shows the title too.
    await erik.goto(`/meetings/${id}/saved`);
    await expect.poll(() => erik.getByText(TITLE, { exact: false }).count()).toBeGreaterThan(0);
    for (const page of [erik]) {
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('[onerror], [onload], img[src="x"]').count()).toBe(0);
    }
  });
});
