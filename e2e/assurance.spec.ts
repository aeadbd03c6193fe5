import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import type { PersonaKey } from './support/login.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { seededDataDir, underWayNow } from './support/seed.ts';
import { giveConsent } from './support/call.ts';
import { rawChatRefusals } from './support/raw-chat.ts';

// Issue 10 in the real meeting screen: identity assurance decided by the server (Jonna's e-ID, Erik's staff login,
// an anonymous webcast visitor), a forged label ignored, and raised hands reaching the moderator in order.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 200 } } });

const ids = { webcast: '', webcastRoom: '' };

const bench = useBench(() =>
  seededDataDir(async (insert) => {
    const webcast = await insert({
      title: 'Informationsmöte med tolk',
      type: 1,
      ...underWayNow(),
      participants: [
        { persona: 'erik', role: 'PresenterInternal', isAdmin: true },
        { persona: 'jonna', role: 'PresenterExternal', displayName: 'Jonna S' },
      ],
    });
    Object.assign(ids, { webcast: webcast.id, webcastRoom: webcast.roomId });
  }),
);

async function person(key: PersonaKey): Promise<Page> {
  const page = await bench.person(key);
  expect(await giveConsent(page, ids.webcast)).toBe(200);
  await page.goto(`/meetings/${ids.webcast}/conference`);
  await expect.poll(() => page.title()).toBe('Videomöte - Pågående möte');
  return page;
}

async function visitor(name: string): Promise<Page> {
  const { page } = await bench.newPage();
  await page.goto(`/publicaccess/${ids.webcastRoom}`);
  await page.getByRole('textbox', { name: 'Ange namn' }).fill(name);
  await page.getByRole('button', { name: 'Anslut till mötet' }).click();
  await page.waitForURL((url) => url.pathname === `/meetings/${ids.webcast}/conference`);
  return page;
}

const panel = (page: Page) => page.getByRole('region', { name: /^Deltagare \(\d+\)$/ });
const rowOf = (page: Page, name: string) => panel(page).locator('.participants-row', { hasText: name });
const assuranceOf = (page: Page, name: string) => rowOf(page, name).locator('.assurance .visually-hidden').textContent();
const queue = (page: Page) => panel(page).locator('.hand-queue__name').allTextContents();

describe('issue 10 in the meeting screen', () => {
  it('shows server-decided assurance labels, ignores a forged one, and queues raised hands in order for the moderator', async () => {
    const erik = await person('erik');
    const jonna = await person('jonna');
    const sara = await visitor('Sara');
    await erik.getByRole('button', { name: /^Deltagare/ }).click();
    await expect.poll(() => panel(erik).getByRole('heading', { level: 2 }).textContent()).toBe('Deltagare (3)');
    await expect.poll(() => assuranceOf(erik, 'Jonna S')).toBe('Verifierad med e-legitimation');
    await expect.poll(() => assuranceOf(erik, 'Erik')).toBe('Inloggad som anställd');
    await expect.poll(() => assuranceOf(erik, 'Sara')).toBe('Ej verifierad (besökare)');

    // Sara's browser opens its own chat socket and claims e-ID and an interpreter's role: the server refuses the frames.
    const refused = await rawChatRefusals(sara, ids.webcast, [
      { type: 'PRESENCE', data: { joined: [{ connectionId: 'x', displayName: 'Sara', assurance: 'eid', role: 'SignLanguageInterpreter' }], left: [] } },
      { type: 'CHAT_MESSAGE', from: null, displayName: 'Sara', assurance: 'eid', data: { id: 'x', data: 'intygad', assurance: 'eid' } },
    ]);
    expect(refused).toEqual(['Meddelandet kunde inte läsas.']);
    await expect.poll(() => rowOf(erik, 'Sara').count()).toBeGreaterThan(0);
    for (let i = 0; i < (await rowOf(erik, 'Sara').count()); i++) {
      expect(await rowOf(erik, 'Sara').nth(i).locator('.assurance .visually-hidden').textContent()).toBe('Ej verifierad (besökare)');
    }

    // Raised hands: the visitor first, then Jonna; the moderator sees them in that order and lowers the visitor's.
    await sara.getByRole('button', { name: /^Deltagare/ }).click();
    await panel(sara).getByRole('button', { name: 'Räck upp handen' }).click();
    await expect.poll(() => queue(erik)).toEqual(['Sara']);
    await jonna.getByRole('button', { name: /^Deltagare/ }).click();
    await panel(jonna).getByRole('button', { name: 'Räck upp handen' }).click();
    await expect.poll(() => queue(erik)).toEqual(['Sara', 'Jonna S']);
    // The moderator heard about it in the live region.
    await expect.poll(() => erik.getByTestId('live-announcer').textContent()).toContain('Jonna S räcker upp handen');
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await panel(erik).getByRole('button', { name: 'Sänk handen för Sara' }).click();
    await expect.poll(() => queue(erik)).toEqual(['Jonna S']);
    await expect.poll(() => panel(sara).getByRole('button', { name: 'Räck upp handen' }).getAttribute('aria-pressed')).toBe('false');
    expect(await seriousAxeViolations(sara)).toEqual([]);
  }, 240_000);
});
