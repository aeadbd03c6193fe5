import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newUserPage } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { seriousAxeViolations } from './support/axe.ts';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('serves the built app with its config on one port', async () => {
  const { page } = await newUserPage(browser, server.url);
  await page.goto('/personaldata');
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Så här hanterar vi personuppgifter i Videomöte');
  expect(await seriousAxeViolations(page)).toEqual([]);
  const config = await (await fetch(`${server.url}/assets/config/config.json`)).json();
  expect(config.chatBaseUrl).toBe(`ws://127.0.0.1:${server.port}/chat`);
});
