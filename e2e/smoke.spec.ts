import { expect, it } from 'vitest';
import { useBench } from './support/bench.ts';
import { seriousAxeViolations } from './support/axe.ts';

const bench = useBench();

it('serves the built app with its config on one port', async () => {
  const { page } = await bench.newPage();
  await page.goto('/personaldata');
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Så här hanterar vi personuppgifter i Videomöte');
  expect(await seriousAxeViolations(page)).toEqual([]);
  const config = await (await fetch(`${bench.server.url}/assets/config/config.json`)).json();
  expect(config.chatBaseUrl).toBe(`ws://127.0.0.1:${bench.server.port}/chat`);
});

it("paints a page's first screen from its HTML, and the app takes it over without moving anything", async () => {
  const { page } = await bench.newPage({ viewport: { width: 390, height: 844 } });
  // Without the app's script the page shows what its HTML holds: the shell and the page's texts.
  const earlyStart = /\/assets\/early-start-[^/]+\.js$/;
  await page.route(earlyStart, (route) => route.abort());
  await page.goto('/personaldata');
  expect(await page.locator('h1').textContent()).toBe('Så här hanterar vi personuppgifter i Videomöte');
  // Inert until the app has replaced it: nothing in it can be clicked or typed into, so nothing is lost.
  expect(await page.locator('#root > [data-first-screen]').evaluate((e) => (e as HTMLElement).inert)).toBe(true);
  await page.unroute(earlyStart);
  await page.goto('/personaldata');
  // The app runs: its menu opens.
  await page.getByRole('button', { name: 'Meny' }).click();
  await page.getByRole('navigation', { name: 'Huvudmeny' }).waitFor();
  // What moved on its own (not after the click) between the first screen and the app's page: nothing.
  const shifted = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().reduce((sum, e) => sum + ((e as unknown as { hadRecentInput: boolean }).hadRecentInput ? 0 : (e as unknown as { value: number }).value), 0))).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(0), 1_000);
      }),
  );
  expect(shifted).toBe(0);
});

it('sends built assets compressed and lets browsers keep them, and the page itself is always revalidated', async () => {
  const html = await (await fetch(`${bench.server.url}/`)).text();
  const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeTruthy();
  const br = await fetch(`${bench.server.url}${script}`, { headers: { 'accept-encoding': 'br' } });
  expect(br.headers.get('content-encoding')).toBe('br');
  expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
  const plain = await fetch(`${bench.server.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers.get('content-encoding')).toBeNull();
  // fetch() undoes br itself: both bodies are the same script.
  expect(await br.text()).toBe(await plain.text());
  expect((await fetch(`${bench.server.url}/meetings`)).headers.get('cache-control')).toBe('no-cache');
});

it('answers a missing built asset with a 404, not the app page, so an old tab cannot run HTML as a script', async () => {
  const missing = await fetch(`${bench.server.url}/assets/index-Gone1234.js`);
  expect(missing.status).toBe(404);
  expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await missing.json()).toEqual({ name: 'NotFound', message: 'Hittades inte', statusCode: 404 });
  const config = await fetch(`${bench.server.url}/assets/config/config.json`);
  expect(config.status).toBe(200);
  expect((await fetch(`${bench.server.url}/assets/config/other.json`)).status).toBe(404);
  const page = await fetch(`${bench.server.url}/assets-are-not-a-page-name`);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
});

it('reloads once when a page’s code is gone after a deploy, then shows the error page instead of reloading again', async () => {
  const { context, page } = await bench.newPage();
  let asked = 0;
  await page.route(/\/assets\/personal-data-page-[^/]+\.js$/, (route) => {
    asked++;
    return route.fulfill({ status: 404, contentType: 'application/json', body: '{"name":"NotFound","message":"Hittades inte","statusCode":404}' });
  });
  // The page is loaded twice (the one reload); each load asks for the chunk (its HTML names it for preloading too,
  // so a load may ask twice: the preload, then the import after the preload failed).
  let loads = 0;
  page.on('request', (r) => {
    if (r.resourceType() === 'document' && new URL(r.url()).pathname === '/personaldata') loads++;
  });
  await page.goto('/personaldata');
  await page.getByRole('heading', { level: 1, name: 'Något gick fel' }).waitFor();
  expect(loads).toBe(2);
  expect(asked).toBeGreaterThanOrEqual(2);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await context.close();
});
