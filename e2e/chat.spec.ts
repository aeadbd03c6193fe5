import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { useBench } from './support/bench.ts';
import type { PersonaKey } from './support/login.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { screenshot } from './support/screenshots.ts';
import { ERIK_WITH_JONNA, seededDataDir, underWayNow } from './support/seed.ts';
import { giveConsent } from './support/call.ts';

// The chat and participants panels in the real meeting screen: real server, real chat socket, Chromium. The
// meetings are written into the server's database before it starts (a webcast under way needs a start in the past).
vi.setConfig({ expect: { poll: { timeout: 20_000, interval: 100 } } });

const ids = { meeting: '', webcast: '', webcastRoom: '' };

const bench = useBench(() =>
  seededDataDir(async (insert) => {
    const meeting = await insert({
      title: 'Samtal med chatt',
      type: 0,
      ...underWayNow(),
      participants: ERIK_WITH_JONNA,
    });
    const webcast = await insert({
      title: 'Informationsmöte',
      type: 1,
      ...underWayNow(),
      participants: [{ persona: 'erik', role: 'PresenterInternal', isAdmin: true }],
    });
    Object.assign(ids, { meeting: meeting.id, webcast: webcast.id, webcastRoom: webcast.roomId });
  }),
);
// Every page runs a call with fake camera media: close them after each test, two cores are shared by everything.
afterEach(() => bench.closePages());

async function person(key: PersonaKey, meetingId: string): Promise<Page> {
  const page = await bench.person(key);
  expect(await giveConsent(page, meetingId)).toBe(200);
  await page.goto(`/meetings/${meetingId}/conference`);
  await expect.poll(() => page.title()).toBe('Videomöte - Pågående möte');
  return page;
}

const chatButton = (page: Page) => page.getByRole('button', { name: /^Chatt/ });
const chatPanel = (page: Page) => page.getByRole('region', { name: 'Chatt' });
const messages = (page: Page) => page.getByRole('log', { name: 'Chattmeddelanden' });
const badge = (page: Page) => chatButton(page).locator('.chat-unread-badge');

async function openChat(page: Page): Promise<void> {
  await chatButton(page).click();
  await chatPanel(page).waitFor();
}

async function say(page: Page, text: string): Promise<void> {
  const input = chatPanel(page).getByRole('textbox', { name: 'Skriv ett meddelande' });
  await input.fill(text);
  await chatPanel(page).getByRole('button', { name: 'Skicka' }).click();
  await expect.poll(() => input.inputValue()).toBe('');
}

describe('chat in a meeting', () => {
  it('two participants chat; the unread badge counts and clears; markup stays text; the moderator deletes a message', async () => {
    const erik = await person('erik', ids.meeting);
    const jonna = await person('jonna', ids.meeting);

    await openChat(erik);
    expect(await seriousAxeViolations(erik)).toEqual([]);
    // An empty message is not sent.
    await chatPanel(erik).getByRole('button', { name: 'Skicka' }).click();
    await say(erik, 'Hej Jonna!');
    await say(erik, 'Hur går det?');
    await expect.poll(() => messages(erik).getByText('Hej Jonna!').count()).toBe(1);
    expect(await messages(erik).locator('.chat-bubble--own .chat-bubble__name').first().textContent()).toBe('Du');

    // Jonna has the chat closed: the badge counts both, and opening the chat clears it.
    await expect.poll(() => badge(jonna).textContent().catch(() => '')).toContain('2');
    expect(await chatButton(jonna).getAttribute('aria-pressed')).toBe('false');
    await openChat(jonna);
    await expect.poll(() => badge(jonna).count()).toBe(0);
    const erikBubble = messages(jonna).locator('.chat-bubble', { hasText: 'Hej Jonna!' });
    expect(await erikBubble.locator('.chat-bubble__name').textContent()).toBe('Erik Handläggare');
    expect(await erikBubble.locator('time').textContent()).toMatch(/^\d{2}:\d{2}$/);
    // Jonna is no moderator: no delete buttons, no pause toggle.
    expect(await chatPanel(jonna).getByRole('button', { name: 'Ta bort meddelandet' }).count()).toBe(0);
    expect(await chatPanel(jonna).getByRole('switch').count()).toBe(0);

    // Markup arrives and shows as the characters typed, and runs nothing.
    const payload = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await say(jonna, payload);
    await expect.poll(() => messages(erik).getByText(payload, { exact: true }).count()).toBe(1);
    expect(await messages(erik).locator('img, script').count()).toBe(0);
    expect(await erik.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // The moderator deletes Jonna's message: gone for both.
    await say(jonna, 'Ett olämpligt meddelande');
    const bad = messages(erik).locator('.chat-bubble', { hasText: 'Ett olämpligt meddelande' });
    await bad.waitFor();
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await bad.getByRole('button', { name: 'Ta bort meddelandet' }).click();
    await expect.poll(() => messages(jonna).getByText('Ett olämpligt meddelande').count()).toBe(0);
    await expect.poll(() => messages(erik).getByText('Ett olämpligt meddelande').count()).toBe(0);

    // 'Stäng' closes the panel; new messages count again.
    await chatPanel(jonna).getByRole('button', { name: 'Stäng' }).click();
    await say(erik, 'En till');
    await expect.poll(() => badge(jonna).textContent().catch(() => '')).toContain('1');
  });

  it("a failed connection: the chat's ERROR line says why, not only 'Anslutning misslyckades'", async () => {
    // The media relay refuses Erik's session (its 30 media sockets a minute spent, as a runaway script would), while
    // the page, the API and the chat socket work: the media session's first attempts fail (spec §4 Connection).
    const erik = await bench.person('erik');
    expect(await giveConsent(erik, ids.meeting)).toBe(200);
    const opened = await erik.evaluate(async (meetingId) => {
      await fetch('/api/getantiforgerydata');
      const xsrf = decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='))?.slice(11) ?? '');
      const res = await fetch('/api/meeting/gettoken', { method: 'POST', headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrf }, body: JSON.stringify({ data: { meetingId } }) });
      const token = (await res.json()).data.tokenData.token as string;
      let n = 0;
      for (let i = 0; i < 30; i++) {
        const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/media/${meetingId}?token=${encodeURIComponent(token)}`, 'janus-protocol');
        if (await new Promise<boolean>((r) => ((ws.onopen = () => r(true)), (ws.onerror = () => r(false))))) n += 1;
        ws.close();
      }
      return n;
    }, ids.meeting);
    expect(opened).toBe(30);
    await erik.goto(`/meetings/${ids.meeting}/conference`);
    await expect.poll(() => erik.locator('.call-status').textContent(), { timeout: 60_000 }).toBe('Anslutning misslyckades');
    expect(await erik.locator('[data-error-key="connectionFailed"]').textContent()).toContain('Anslutning misslyckades');
    await openChat(erik);
    const line = messages(erik).locator('.chat-notice--error', { hasText: 'Det gick inte att nå mötets videoserver.' });
    await expect.poll(() => line.count()).toBe(1);
    expect(await line.getByRole('img', { name: 'Fel' }).count()).toBe(1);
    expect(await line.locator('time').textContent()).toMatch(/^\d{2}:\d{2}$/);
    // The line carries the failure's message, not the banner's words again.
    expect(await messages(erik).locator('.chat-notice--error', { hasText: /^\d{2}:\d{2}Anslutning misslyckades$/ }).count()).toBe(0);
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await screenshot(erik, 'chat-connection-failure');
  });

  it('the emoji picker inserts by Swedish name and hides after sending', async () => {
    const erik = await person('erik', ids.meeting);
    await openChat(erik);
    await chatPanel(erik).getByRole('button', { name: 'Infoga emoji' }).click();
    const list = chatPanel(erik).getByRole('list', { name: 'Emojier' });
    expect(await list.getByRole('button').count()).toBe(12);
    await list.getByRole('button', { name: 'tummen upp', exact: true }).click();
    expect(await chatPanel(erik).getByRole('textbox', { name: 'Skriv ett meddelande' }).inputValue()).toBe('👍');
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await chatPanel(erik).getByRole('button', { name: 'Skicka' }).click();
    await expect.poll(() => list.count()).toBe(0);
    await expect.poll(() => messages(erik).getByText('👍', { exact: true }).count()).toBeGreaterThan(0);
  });
});

describe('chat scrolling', () => {
  it("follows new messages at the bottom; scrolled up, it shows 'Till senaste meddelandet' instead", async () => {
    const erik = await person('erik', ids.meeting);
    const jonna = await person('jonna', ids.meeting);
    await openChat(erik);
    await openChat(jonna);
    const long = (n: number) => `Meddelande ${n}: ${'en lång rad text som tar plats i listan '.repeat(6)}`;
    for (let n = 1; n <= 8; n++) await say(jonna, long(n));
    await expect.poll(() => messages(erik).getByText(long(8)).count()).toBe(1);
    const atBottom = () => messages(erik).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight <= 16);
    await expect.poll(atBottom).toBe(true);
    const latest = chatPanel(erik).getByRole('button', { name: 'Till senaste meddelandet' });
    expect(await latest.count()).toBe(0);

    await messages(erik).evaluate((el) => el.scrollTo({ top: 0 }));
    await latest.waitFor();
    await say(jonna, 'Nytt medan Erik läser äldre');
    await expect.poll(() => messages(erik).getByText('Nytt medan Erik läser äldre').count()).toBe(1);
    expect(await atBottom()).toBe(false);
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await latest.click();
    await expect.poll(atBottom).toBe(true);
    await expect.poll(() => latest.count()).toBe(0);
  });
});

describe('chat in a webcast', () => {
  it('the moderator pauses the chat and switches one visitor off; the visitor sees the paused text', async () => {
    const erik = await person('erik', ids.webcast);
    const { page: visitor } = await bench.newPage();
    await visitor.goto(`/publicaccess/${ids.webcastRoom}`);
    await visitor.getByRole('textbox', { name: 'Ange namn' }).fill('Sara');
    await visitor.getByRole('button', { name: 'Anslut till mötet' }).click();
    await visitor.waitForURL((url) => url.pathname === `/meetings/${ids.webcast}/conference`);

    // Participants panel: presenters and participants, with the moderator's chat switch per visitor.
    await erik.getByRole('button', { name: /^Deltagare/ }).click();
    const people = erik.getByRole('region', { name: /^Deltagare \(\d+\)$/ });
    await expect.poll(() => people.getByRole('heading', { level: 2 }).textContent()).toBe('Deltagare (2)');
    expect(await people.getByRole('heading', { name: 'Presentatörer' }).count()).toBe(1);
    // The presenter's row carries microphone and camera state from the media session; visitors' rows do not.
    const presenterRow = people.getByRole('listitem').filter({ hasText: 'Erik Handläggare' });
    await expect.poll(() => presenterRow.getByRole('img', { name: /^Mikrofon (på|av)$/ }).count()).toBe(1);
    expect(await presenterRow.getByRole('img', { name: /^Kamera (på|av)$/ }).count()).toBe(1);
    expect(await people.getByRole('listitem').filter({ hasText: 'Sara' }).getByRole('img').count()).toBe(0);
    expect(await seriousAxeViolations(erik)).toEqual([]);

    await openChat(erik);
    await openChat(visitor);
    await say(visitor, 'Hej från Sara');
    await expect.poll(() => messages(erik).getByText('Hej från Sara').count()).toBe(1);
    expect(await messages(erik).locator('.chat-bubble', { hasText: 'Hej från Sara' }).locator('.chat-bubble__name').textContent()).toBe('Sara');

    // Pause: the toggle shows På while open.
    const toggle = chatPanel(erik).getByRole('switch', { name: /Chatt för deltagare/ });
    expect(await toggle.textContent()).toContain('På');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    expect(await toggle.textContent()).toContain('Av');
    await chatPanel(visitor).getByText('Chatten är pausad av moderatorn').waitFor();
    expect(await chatPanel(visitor).getByRole('textbox', { name: 'Skriv ett meddelande' }).count()).toBe(0);
    await chatPanel(erik).getByText('Chatten är pausad för deltagare').waitFor();
    await say(erik, 'Moderatorn kan fortfarande skriva');
    await expect.poll(() => messages(visitor).getByText('Moderatorn kan fortfarande skriva').count()).toBe(1);
    expect(await seriousAxeViolations(visitor)).toEqual([]);

    // Resume, then switch Sara's chat off from the participants panel: her message reaches nobody.
    await toggle.click();
    await chatPanel(visitor).getByRole('textbox', { name: 'Skriv ett meddelande' }).waitFor();
    await erik.getByRole('button', { name: /^Deltagare/ }).click();
    const sara = people.getByRole('switch', { name: 'Chatt på för Sara' });
    await sara.click();
    await people.getByRole('switch', { name: 'Chatt av för Sara' }).waitFor();
    await openChat(erik);
    await say(visitor, 'Syns inte');
    await chatPanel(visitor).getByText('Moderatorn har stängt av chatten för dig.').waitFor();
    await say(erik, 'Markör');
    await expect.poll(() => messages(erik).getByText('Markör').count()).toBe(1);
    expect(await messages(erik).getByText('Syns inte').count()).toBe(0);
  });
});
