import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, book, CallBench, connectionIdOf, enter, inbound, status } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { BOOKER_AS_OFFICER, JONNA_BY_PIN } from './support/booking.ts';

// Forced mute (conference spec §2, §4, §6) through the server and Janus's VideoRoom `moderate`.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 250 } } });

const bench = new CallBench();
let erik: Page;
let jonna: Page;
let meeting: { id: string };

beforeAll(async () => {
  await bench.start();
  [erik, jonna] = await Promise.all([bench.person('erik'), bench.person('jonna')]);
  meeting = await book(erik, {
    participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN],
  });
}, 300_000);
afterAll(async () => bench.stop());

/** Audio packets Erik has received from Jonna's camera feed so far. */
const audioFromJonna = async (jonnaId: string) => (await inbound(erik)).filter((s) => s.streamId === `camera-${jonnaId}`).reduce((n, s) => n + s.audioPackets, 0);

async function audioFlows(jonnaId: string): Promise<boolean> {
  const a = await audioFromJonna(jonnaId);
  await new Promise((r) => setTimeout(r, 2_000));
  return (await audioFromJonna(jonnaId)) > a + 20; // Opus sends 50 packets a second
}

describe('forced mute', () => {
  it('an admin force-mutes B: B\'s microphone goes off with the banner, and Janus stops relaying B\'s audio', async () => {
    await enter(erik, meeting.id);
    await enter(jonna, meeting.id);
    for (const p of [erik, jonna]) await expect.poll(() => status(p).textContent(), { timeout: 60_000 }).toBe('2 personer deltar i mötet');
    const jonnaId = await connectionIdOf(jonna);
    await expect.poll(() => jonna.getByRole('button', { name: 'Stäng av din mikrofon' }).count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => audioFlows(jonnaId), { timeout: 60_000 }).toBe(true);

    // The admin-only tile section: Erik has it, Jonna (no admin) does not.
    const mute = erik.getByRole('button', { name: 'Stäng av mikrofonen för Jonna Sökande' });
    await expect.poll(() => mute.count()).toBe(1);
    expect(await jonna.getByRole('button', { name: /Stäng av mikrofonen för/ }).count()).toBe(0);
    expect(await seriousAxeViolations(erik)).toEqual([]);
    // Mark the live regions that are in Jonna's page before the mute (a region added together with its
    // text is often not read).
    await jonna.evaluate(() => document.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]').forEach((el) => el.setAttribute('data-live-before-mute', '')));
    await mute.click();

    const banner = jonna.getByRole('status').filter({ hasText: 'Någon i mötet har stängt av din mikrofon' });
    await expect.poll(() => banner.count()).toBe(1);
    // The banner's text sits inside a live region (aria-live other than off, or role alert/status) that was there
    // for the call before the text came, so screen readers announce it.
    const region = await jonna.evaluate(() => {
      const text = Array.from(document.querySelectorAll('p')).find((p) => p.textContent === 'Någon i mötet har stängt av din mikrofon');
      const live = text?.closest('[aria-live]:not([aria-live="off"]), [role="alert"], [role="status"]');
      return live ? { live: live.getAttribute('aria-live') ?? live.getAttribute('role'), before: live.hasAttribute('data-live-before-mute'), text: live.textContent } : null;
    });
    expect(region).toMatchObject({ before: true, text: expect.stringContaining('Någon i mötet har stängt av din mikrofon') });
    expect(['assertive', 'polite', 'alert', 'status']).toContain(region!.live);
    await expect.poll(() => jonna.getByRole('button', { name: 'Slå på din mikrofon' }).count()).toBe(1);
    await expect.poll(() => erik.locator('.tile', { hasText: 'Jonna Sökande' }).getByRole('img', { name: 'Mikrofonen är avstängd' }).count()).toBe(1);
    await expect.poll(() => audioFlows(jonnaId)).toBe(false);
    // No audio means no admin mute button any more.
    await expect.poll(() => mute.count()).toBe(0);
    expect(await seriousAxeViolations(jonna)).toEqual([]);

    // Dismissible.
    await banner.getByRole('button', { name: 'Stäng' }).click();
    await expect.poll(() => jonna.getByText('Någon i mötet har stängt av din mikrofon').count()).toBe(0);

    // Jonna's own choice to speak again: the server lets Janus relay her audio again.
    await jonna.getByRole('button', { name: 'Slå på din mikrofon' }).click();
    await expect.poll(() => erik.locator('.tile', { hasText: 'Jonna Sökande' }).getByRole('img', { name: 'Mikrofonen är på' }).count()).toBe(1);
    await expect.poll(() => audioFlows(jonnaId)).toBe(true);
  }, 300_000);

  it('a non-admin\'s force-mute is refused by the server, and nothing is muted', async () => {
    const erikId = await connectionIdOf(erik);
    const jonnaId = await connectionIdOf(jonna);
    const refused = await apiCall(jonna, 'POST', `/api/media/${meeting.id}/forcemute`, { connectionId: erikId });
    expect(refused.status).toBe(403);
    expect(await erik.getByText('Någon i mötet har stängt av din mikrofon').count()).toBe(0);
    expect(await erik.getByRole('button', { name: 'Stäng av din mikrofon' }).count()).toBe(1);
    // A muted-already target is a clear 409 for the admin, not a 500.
    await jonna.getByRole('button', { name: 'Stäng av din mikrofon' }).click();
    await expect.poll(() => erik.locator('.tile', { hasText: 'Jonna Sökande' }).getByRole('img', { name: 'Mikrofonen är avstängd' }).count()).toBe(1);
    const conflict = await apiCall(erik, 'POST', `/api/media/${meeting.id}/forcemute`, { connectionId: jonnaId });
    expect(conflict.status).toBe(409);
    expect(JSON.parse(conflict.body).message).toBe('Deltagaren har ingen påslagen mikrofon');
  }, 120_000);
});
