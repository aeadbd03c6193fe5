import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newUserPage, type UserPageOptions } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { loginAs, loginWithPin, type PersonaKey } from './login.ts';

/** How a spec file's server starts: extra environment, a prepared DATA_DIR (see seed.ts), a fixed port. */
export interface BenchStart {
  env?: Record<string, string>;
  dataDir?: string;
  port?: number;
}

/**
 * The real server (with the embedded Janus) and one Chromium with the fake camera and microphone, shared by the tests
 * of one spec file. Every page it opens is closed with it (or earlier, by `closePages`).
 */
export class Bench {
  server!: RunningServer;
  browser!: Browser;
  private readonly contexts: BrowserContext[] = [];

  async start(env: Record<string, string> = {}, options: { dataDir?: string; port?: number } = {}): Promise<void> {
    [this.server, this.browser] = await Promise.all([startServer(env, options), launchBrowser()]);
  }

  async stop(): Promise<void> {
    await this.closePages();
    await this.browser?.close().catch(() => {});
    await this.server?.stop();
  }

  /** A fresh page nobody is logged in on (Swedish locale, Stockholm time, camera and microphone allowed). */
  async newPage(options: UserPageOptions = {}, browser: Browser = this.browser): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await newUserPage(browser, this.server.url, options);
    this.contexts.push(opened.context);
    return opened;
  }

  /** Closes every page opened so far: a page in a call keeps encoding fake media, and two cores are shared. */
  async closePages(): Promise<void> {
    for (const c of this.contexts.splice(0)) await c.close().catch(() => {});
  }

  /** A new page with the persona logged in through the embedded IdP, on `path`. */
  async person(key: PersonaKey, browser: Browser = this.browser, path = '/meetings'): Promise<Page> {
    const { page } = await this.newPage({}, browser);
    await loginAs(page, key, path);
    return page;
  }

  /** Someone who is not a persona: logged in with a personnummer and a name through the IdP's free form. */
  async personWithPin(pin: string, name: string, browser: Browser = this.browser): Promise<Page> {
    const { page } = await this.newPage({}, browser);
    await loginWithPin(page, pin, name, '/meetings');
    return page;
  }
}

/**
 * A bench for the spec file: started before its first test (after `prepare`, which may seed a DATA_DIR) and stopped
 * after its last.
 */
export function useBench<B extends Bench = Bench>(prepare: () => Promise<BenchStart | void> = async () => {}, bench: B = new Bench() as B): B {
  beforeAll(async () => {
    const start = (await prepare()) ?? {};
    await bench.start(start.env, { dataDir: start.dataDir, port: start.port });
  });
  afterAll(() => bench.stop());
  return bench;
}
