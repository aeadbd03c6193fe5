import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { book, CallBench } from './support/call.ts';
import { expectAxeClean } from './support/axe.ts';
import { expectVisibleFocus, focused, tabTo } from './support/keyboard.ts';
import { BOOKER_AS_OFFICER } from './support/booking.ts';

// From the meeting card through the lobby into the call and out again with the keyboard alone
// (page.keyboard only after the login), on the real server, Janus and Chromium's fake devices.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 200 } } });

const bench = new CallBench();
let erik: Page;

beforeAll(async () => {
  await bench.start();
  erik = await bench.person('erik');
}, 300_000);
afterAll(async () => bench.stop());

/** The focused toggle's aria-pressed, once it has changed from `before`, and its (new) name. */
async function toggledFrom(page: Page, before: string | null): Promise<{ pressed: string | null; name: string }> {
  await expect.poll(async () => (await focused(page)).pressed).not.toBe(before);
  const f = await expectVisibleFocus(page, 'toggle after its key');
  return { pressed: f.pressed, name: f.name };
}

describe('keyboard-only lobby and meeting controls', () => {
  it("Erik goes from 'Gå in i meeting' through the lobby, works every call control and leaves, by keyboard alone", async () => {
    const meeting = await book(erik, { title: 'Tangentbordsmöte', participants: [BOOKER_AS_OFFICER] });
    // Every camera and microphone the page opens, as "kind:track id", to see the call take the lobby's own.
    await erik.addInitScript(() => {
      const devices = navigator.mediaDevices;
      const open = devices.getUserMedia.bind(devices);
      const opened: string[][] = ((window as unknown as { __opened: string[][] }).__opened = []);
      devices.getUserMedia = async (constraints) => {
        const stream = await open(constraints);
        opened.push(stream.getTracks().map((t) => `${t.kind}:${t.id}`));
        return stream;
      };
    });
    await erik.reload();
    await erik.getByRole('heading', { level: 1, name: 'Välkommen Erik Handläggare' }).waitFor();

    // The card's own link to the lobby.
    const link = await tabTo(erik, 'Gå in i meeting');
    expect(link.tag).toBe('a');
    await erik.keyboard.press('Enter');
    await erik.getByRole('heading', { level: 1, name: 'Till Mötet' }).waitFor();
    expect(new URL(erik.url()).pathname).toBe(`/meetings/${meeting.id}/lobby`);
    await erik.getByRole('combobox', { name: 'Kamera' }).waitFor();
    await expectAxeClean(erik, 'lobby');

    // Joining without the consent: the error shows and focus goes to the checkbox; Space ticks it.
    await tabTo(erik, 'Anslut till mötet');
    await erik.keyboard.press('Enter');
    await erik.getByText('Du måste intyga att du förstår hanteringen av personuppgifter').waitFor();
    const consent = await expectVisibleFocus(erik, 'consent after a refused join');
    expect(consent).toMatchObject({ tag: 'input', type: 'checkbox', name: 'Jag intygar att jag förstår hanteringen av personuppgifter' });
    await expectAxeClean(erik, 'lobby with the consent error');
    await erik.keyboard.press('Space');
    expect(await erik.evaluate(() => (document.activeElement as HTMLInputElement).checked)).toBe(true);
    await tabTo(erik, 'Anslut till mötet', { max: 3 });
    const opened = () => erik.evaluate(() => (window as unknown as { __opened: string[][] }).__opened);
    // The lobby opens both devices once to read their labels, then the camera and the microphone each on its own; on a
    // loaded machine the microphone may still be opening here (seen in CI), so wait for both.
    await expect.poll(async () => new Set((await opened()).slice(1).flat().map((t) => t.split(':')[0])).size, { timeout: 20_000 }).toBe(2);
    const inLobby = await opened();
    // The lobby's live camera and microphone: the last of each it opened.
    const lastOf = (kind: string) => inLobby.flat().filter((t) => t.startsWith(`${kind}:`)).pop();
    const lobbyTracks = [lastOf('audio'), lastOf('video')];
    await erik.keyboard.press('Enter');

    await expect.poll(() => erik.title()).toBe('Videomöte - Pågående möte');
    await expect.poll(() => erik.locator('.conference').getAttribute('data-connection-status', { timeout: 1_000 }).catch(() => 'absent'), { timeout: 60_000 }).toBe('connected');
    await expect.poll(() => erik.getByRole('button', { name: 'Stäng av din mikrofon' }).count(), { timeout: 60_000 }).toBe(1);
    // The call sends the lobby's camera and microphone as they were (lib/device-handover.ts): nothing opened anew.
    expect(await opened()).toEqual(inLobby);
    const ownTracks = await erik.locator('.tile--own video').evaluate((v) => ((v as HTMLVideoElement).srcObject as MediaStream).getTracks().map((t) => `${t.kind}:${t.id}`));
    expect(ownTracks.sort()).toEqual([...lobbyTracks].sort());
    await expectAxeClean(erik, 'meeting screen');

    // The help popover: Enter opens it, Tab reaches its button, Escape closes it and focus goes back to its toggle.
    const help = await tabTo(erik, 'Fungerar det inte?', { back: true });
    expect(help.tag).toBe('button');
    await erik.keyboard.press('Enter');
    await erik.getByRole('dialog', { name: 'Fungerar det inte?' }).waitFor();
    await tabTo(erik, 'Ladda om sidan', { max: 2 });
    await erik.keyboard.press('Escape');
    await expect.poll(() => erik.getByRole('dialog', { name: 'Fungerar det inte?' }).count()).toBe(0);
    expect((await expectVisibleFocus(erik, 'help toggle after Escape')).name).toBe('Fungerar det inte?');

    // The own tile: Enter maximises it and focus stays on its button, now 'Minimera'; Space restores it.
    await tabTo(erik, 'Maximera Erik Handläggare');
    await erik.keyboard.press('Enter');
    await expect.poll(async () => (await focused(erik)).name).toBe('Minimera Erik Handläggare');
    await expectVisibleFocus(erik, 'tile button after maximising');
    await erik.keyboard.press('Space');
    await expect.poll(async () => (await focused(erik)).name).toBe('Maximera Erik Handläggare');
    await expectVisibleFocus(erik, 'tile button after minimising');

    // Microphone: Enter turns it off, Space on again; focus stays on the button and shows.
    await tabTo(erik, 'Stäng av din mikrofon');
    await erik.keyboard.press('Enter');
    expect(await toggledFrom(erik, 'false')).toEqual({ pressed: 'true', name: 'Slå på din mikrofon' });
    await erik.keyboard.press('Space');
    expect(await toggledFrom(erik, 'true')).toEqual({ pressed: 'false', name: 'Stäng av din mikrofon' });

    // Camera (off when joining): Enter on, Space off.
    await tabTo(erik, 'Slå på din kamera', { max: 3 });
    await erik.keyboard.press('Enter');
    expect(await toggledFrom(erik, 'true')).toEqual({ pressed: 'false', name: 'Stäng av din kamera' });
    await erik.keyboard.press('Space');
    expect(await toggledFrom(erik, 'false')).toEqual({ pressed: 'true', name: 'Slå på din kamera' });

    // Chat: open it (if it is not), write and send a message with Enter.
    let chat = await tabTo(erik, (f) => f.name.startsWith('Chatt') && f.pressed !== null, { max: 3 });
    if (chat.pressed !== 'true') {
      await erik.keyboard.press('Enter');
      chat = await toggledFrom(erik, chat.pressed).then(() => focused(erik));
    }
    expect(chat.pressed).toBe('true');
    await tabTo(erik, 'Skriv ett meddelande');
    await erik.keyboard.type('Hej från tangentbordet');
    await erik.keyboard.press('Enter');
    await erik.getByRole('log', { name: 'Meddelanden' }).getByText('Hej från tangentbordet').waitFor();
    await expectAxeClean(erik, 'meeting screen with the chat open');

    // Participants: Space opens the panel (it replaces the chat).
    const people = await tabTo(erik, (f) => f.name === 'Deltagare' && f.pressed !== null);
    expect(people.pressed).toBe('false');
    await erik.keyboard.press('Space');
    expect((await toggledFrom(erik, 'false')).pressed).toBe('true');
    await erik.locator('.participants-panel').getByText('Erik Handläggare').first().waitFor();
    expect(await erik.getByRole('log', { name: 'Meddelanden' }).count()).toBe(0);
    await expectAxeClean(erik, 'meeting screen with the participants panel');

    // Settings: Enter opens the dialog, Tab stays inside it, Escape closes it and focus returns to the button.
    await tabTo(erik, 'Inställningar', { back: true });
    await erik.keyboard.press('Enter');
    await erik.getByRole('dialog', { name: 'Inställningar för ljud och bild' }).waitFor();
    await expect.poll(async () => (await focused(erik)).inDialog).toBe(true);
    await expectVisibleFocus(erik, 'settings dialog');
    await expectAxeClean(erik, 'settings dialog');
    const stops = new Set<string>();
    for (let i = 0; i < 8; i++) {
      await erik.keyboard.press('Tab');
      const f = await focused(erik);
      if (f.tag === 'body') continue; // the browser's own chrome between the last and first control of a modal
      expect(f.inDialog, `Tab left the dialog for ${f.path} '${f.name}'`).toBe(true);
      expect(f.ring, `no visible focus on ${f.path} '${f.name}' in the dialog`).toBe(true);
      stops.add(f.name);
    }
    // Eight Tabs go round the dialog's three controls more than once and reach nothing else.
    expect([...stops].sort()).toEqual(['Välj videokälla', 'Välj ljudkälla', 'Stäng'].sort());
    await erik.keyboard.press('Escape');
    await expect.poll(() => erik.getByRole('dialog', { name: 'Inställningar för ljud och bild' }).count()).toBe(0);
    const back = await expectVisibleFocus(erik, 'after Escape');
    expect(back.name).toBe('Inställningar');

    // Leave: 'Lägg på' by Enter ends the call and leaves the meeting screen.
    await tabTo(erik, 'Lägg på');
    await erik.keyboard.press('Enter');
    await expect.poll(() => new URL(erik.url()).pathname).not.toMatch(/\/conference$/);
    await expect.poll(() => erik.title()).not.toBe('Videomöte - Pågående möte');
    await expectAxeClean(erik, 'after leaving');
  }, 300_000);
});
