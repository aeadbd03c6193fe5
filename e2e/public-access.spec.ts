import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import { enter, status } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { screenshot } from './support/screenshots.ts';
import { seededDataDir } from './support/seed.ts';

/**
 * Anonymous entry to webcasts by link. The meetings are written into the server's database before it starts:
 * the booking API refuses meetings in the past, and an ended webcast is one of the cases here.
 */
const rooms = { today: '', tomorrow: '', ended: '', conversation: '' };
let todayId = '';

const bench = useBench(() =>
  seededDataDir(async (insert) => {
    const now = Date.now();
    const min = 60_000;
    const seed = (type: 0 | 1, start: number, end: number) =>
      insert({
        title: type === 1 ? 'Informationsmöte om stöd' : 'Samtal',
        type,
        start: new Date(start),
        end: new Date(end),
        participants: [{ persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true }],
      });
    // "Today" whatever the hour the suite runs: a webcast that started ten minutes ago and runs for an hour.
    const today = await seed(1, now - 10 * min, now + 60 * min);
    todayId = today.id;
    rooms.today = today.roomId;
    rooms.tomorrow = (await seed(1, now + 24 * 60 * min, now + 25 * 60 * min)).roomId;
    rooms.ended = (await seed(1, now - 120 * min, now - 60 * min)).roomId;
    rooms.conversation = (await seed(0, now - 10 * min, now + 60 * min)).roomId;
  }),
);

describe('public access to a webcast', () => {
  it('a valid link today: name form, name required, then the conference as an anonymous visitor', async () => {
    const { context, page } = await bench.newPage();
    await page.goto(`/publicaccess/${rooms.today}`);
    await page.getByRole('heading', { level: 1, name: 'Välkommen till informationsmötet' }).waitFor();
    const name = page.getByRole('textbox', { name: 'Ange namn' });
    expect(await name.getAttribute('maxlength')).toBe('12');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Anslut till mötet' }).click();
    await page.getByRole('alert').filter({ hasText: 'Namn är obligatoriskt' }).waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await name.fill('Sara');
    await page.getByRole('button', { name: 'Anslut till mötet' }).click();
    await page.waitForURL((url) => url.pathname === `/meetings/${todayId}/conference`);
    expect(await page.evaluate(() => localStorage.getItem('displayName'))).toBe('Sara');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'authenticationvariant')?.value).toBe('Webcast');
    const me = await page.evaluate(() => fetch('/api/login/getuserdata').then((r) => r.json()));
    expect(me.data).toMatchObject({ identityKind: 'anonymous', meetingId: todayId, ciamGivenName: 'Sara', features: [] });
    // The visitor's session is fenced to its webcast: the lobby API (any other route) refuses it.
    const other = await page.evaluate((id) => fetch(`/api/lobby/${id}`).then((r) => r.status), todayId);
    expect(other).toBe(403);
    await context.close();
  });

  it.each([
    ['an unknown link', 'unknown', 'Länken fungerar inte', 'Kontrollera länken och testa igen.'],
    ['a webcast on a later day', 'tomorrow', 'Mötet är inte idag', null],
    ['a webcast that has ended', 'ended', 'Mötet har redan varit', null],
    ["a conversation meeting's room", 'conversation', 'Länken fungerar inte', 'Kontrollera länken och testa igen.'],
  ] as const)('%s shows its own error with a picture', async (_what, which, text, advice) => {
    const { context, page } = await bench.newPage();
    const room = which === 'unknown' ? 'AbCdEfGhIjKlMnOpQrStUvWx' : rooms[which];
    await page.goto(`/publicaccess/${room}`);
    await page.getByRole('heading', { level: 1, name: text }).waitFor();
    // A bad link also says what to do, not just that it failed.
    if (advice) expect(await page.locator('.public-access-error').getByText(advice, { exact: true }).count()).toBe(1);
    expect(await page.locator('.public-access-error svg').count()).toBe(1);
    expect(await page.getByRole('textbox', { name: 'Ange namn' }).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/publicaccess/${room}`); // stays in place, no /error
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('the status line counts the people in the webcast as the participants panel does; a nameless visit finds the name form', async () => {
    // Three viewers come before the presenter. None is told of another viewer's media connection (their names are
    // theirs), but all are people in the meeting (conference spec §2 "Call status screen", 'Deltagare (n)').
    const viewers: Page[] = [];
    for (const name of ['Sara', 'Omar', 'Lina']) {
      const { page } = await bench.newPage();
      await page.goto(`/publicaccess/${rooms.today}`);
      await page.getByRole('textbox', { name: 'Ange namn' }).fill(name);
      await page.getByRole('button', { name: 'Anslut till mötet' }).click();
      await page.waitForURL((url) => url.pathname === `/meetings/${todayId}/conference`);
      viewers.push(page);
    }
    for (const v of viewers) await expect.poll(() => status(v).textContent(), { timeout: 60_000 }).toBe('3 personer deltar i mötet');

    const erik = await bench.person('erik');
    await enter(erik, todayId);
    for (const p of [erik, ...viewers]) await expect.poll(() => status(p).textContent(), { timeout: 60_000 }).toBe('4 personer deltar i mötet');
    const viewer = viewers[0]!;
    await screenshot(viewer, 'public-access-viewer-status-line');
    await viewer.getByRole('button', { name: /^Deltagare/ }).click();
    const people = viewer.getByRole('region', { name: /^Deltagare \(\d+\)$/ });
    await expect.poll(() => people.getByRole('heading', { level: 2 }).textContent()).toBe('Deltagare (4)');
    expect(await people.getByRole('heading', { name: 'Presentatörer' }).count()).toBe(1);
    expect(await seriousAxeViolations(viewer)).toEqual([]);
    await screenshot(viewer, 'public-access-viewer-participants');

    // The conference's guard for a visitor without a name (spec §2), reached without the room id: it finds the room
    // and shows the name form there, not 'Mötet avslutat!'.
    const last = viewers[2]!;
    await last.goto(`/meetings/${todayId}/conference/publicaccess`);
    await last.waitForURL((url) => url.pathname === `/publicaccess/${rooms.today}`, { timeout: 30_000 });
    await last.getByRole('textbox', { name: 'Ange namn' }).waitFor();
    expect(await last.getByRole('heading', { name: 'Mötet avslutat!' }).count()).toBe(0);
    await bench.closePages();
  }, 240_000);

  it("a visitor whose browser cannot encrypt end to end is told it cannot see or hear the webcast, not that everyone sees the message", async () => {
    // The server refuses a visitor's `e2ee=0` (one visitor would switch the presenters' frames to plain), so the
    // page does not connect: only the visitor is told, and the text says what that means for them.
    const { context, page } = await bench.newPage();
    await page.addInitScript(() => {
      delete (window as unknown as { RTCRtpScriptTransform?: unknown }).RTCRtpScriptTransform;
    });
    await page.goto(`/publicaccess/${rooms.today}`);
    await page.getByRole('textbox', { name: 'Ange namn' }).fill('Nils');
    await page.getByRole('button', { name: 'Anslut till mötet' }).click();
    await page.waitForURL((url) => url.pathname === `/meetings/${todayId}/conference`);
    const panel = page.locator('.error-panel');
    await expect.poll(() => panel.textContent(), { timeout: 30_000 }).toContain(
      'Din webbläsare kan inte ta emot bild och ljud som är krypterade hela vägen, så du kan inte se eller höra mötet i den. Öppna länken i en aktuell version av Chrome, Edge, Firefox eller Safari.',
    );
    expect(await panel.textContent()).not.toContain('alla i mötet ser detta meddelande');
    // It will not connect: the status line says so rather than 'Ansluter...' under a spinner that never ends.
    await expect.poll(() => status(page).textContent()).toBe('Anslutning misslyckades');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'public-access-visitor-without-e2ee');
    await context.close();
  });

  it('the end page thanks and says the link works again', async () => {
    const { context, page } = await bench.newPage();
    await page.goto('/publicaccessend');
    await page.getByRole('heading', { level: 1, name: 'Mötet avslutat!' }).waitFor();
    expect(await page.getByText('samma länk igen').count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
