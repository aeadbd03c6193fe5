import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { startServer } from './support/server.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { loginAs, loginWithPin } from './support/login.ts';

const bench = useBench();

async function userData(page: Page) {
  return page.evaluate(async () => (await (await fetch('/api/login/getuserdata')).json()).data);
}

describe('identity through the embedded IdP', () => {
  it('shows an accessible Swedish test login page', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/api/login/start?returnUrl=/meetings');
    await page.getByRole('heading', { level: 1, name: 'Testlegitimering' }).waitFor();
    expect(await page.getByText('Det här är en testinloggning.').count()).toBe(1);
    for (const name of ['Anna Admin', 'Erik Handläggare', 'Karin Kompletterande', 'Fredrik Fristående', 'Jonna Sökande']) {
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(1);
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('logs a persona in and back to the page asked for', async () => {
    const { context, page } = await bench.newPage();
    await loginAs(page, 'karin', '/usersupport');
    expect(new URL(page.url()).pathname).toBe('/usersupport');
    const data = await userData(page);
    expect(data).toMatchObject({ ciamGivenName: 'Karin', afRole: ['KompletterandeAktör'], userLevel: 'KA' });
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'vm_session')?.httpOnly).toBe(true);
    expect(cookies.find((c) => c.name === 'authenticationvariant')?.value).toBe('CIAM');
    await context.close();
  });

  it('logs in any valid personnummer with a name', async () => {
    const { context, page } = await bench.newPage();
    await loginWithPin(page, '19121212-1212', 'Tolvan Tolvansson', '/personaldata');
    expect(await userData(page)).toMatchObject({ ciamGivenName: 'Tolvan', ciamFamilyName: 'Tolvansson', identityKind: 'eid', afRole: ['Participant'] });
    await context.close();
  });

  it('shows the form errors for an invalid personnummer, accessibly', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/api/login/start?returnUrl=/meetings');
    await page.getByRole('textbox', { name: 'Personnummer' }).fill('19900101-2384');
    await page.getByRole('textbox', { name: 'Namn', exact: true }).fill('Test Person');
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await page.getByText('Ange ett giltigt personnummer').waitFor();
    expect(await page.getByRole('textbox', { name: 'Personnummer' }).getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('survives a server restart: IdP keys and a login started before it', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/api/login/start?returnUrl=/personaldata');
    await page.getByRole('heading', { level: 1, name: 'Testlegitimering' }).waitFor();
    const port = bench.server.port;
    const dataDir = bench.server.dataDir;
    await bench.server.stop();
    bench.server = await startServer({}, { port, dataDir });
    await Promise.all([
      page.waitForURL((u) => u.pathname === '/personaldata', { timeout: 30_000 }),
      page.getByRole('button', { name: 'Erik Handläggare', exact: true }).click(),
    ]);
    expect(await userData(page)).toMatchObject({ ciamGivenName: 'Erik', afId: 'erihan' });
    await context.close();
  });
});
