import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREEN_HANDLE_TAG } from '@videomote/contract/media';
import { apiCall, book, CallBench, connectionIdOf, enter, keepsDecoding, status, toolbar } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { BOOKER_AS_OFFICER, JONNA_BY_PIN, KARIN_AS_CONTRACTOR } from './support/booking.ts';
import { loginAs } from './support/login.ts';
import { rawPublishAttempt } from './support/raw-media-in-page.ts';
import { screenshot } from './support/screenshots.ts';

// Screen sharing with takeover (conference spec §2, §4, §6), through the real server, Janus and Chromium's fake
// screen (--use-fake-ui-for-media-stream picks it without a picker), with the groups' default grants: a caseworker, a
// job seeker and a contractor all share and take a share over after the confirmation. Two shared cores: generous waits.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 250 } } });

const bench = new CallBench();
let erik: Page;
let jonna: Page;
let karin: Page;
let meeting: { id: string };

/** `taker` presses 'Dela skärm' while `sharer` shares, confirms the takeover, and every page then shows the new share. */
async function takeOver(taker: Page, takerName: string, takerId: string, sharerName: string, sharerId: string, others: Page[]): Promise<void> {
  await taker.getByRole('button', { name: 'Dela skärm' }).click({ timeout: 30_000 });
  await taker.getByRole('alertdialog', { name: `${sharerName} delar redan sin skärm. Vill du ta över skärmdelningen?` }).waitFor({ timeout: 30_000 });
  await taker.getByRole('button', { name: 'Ja, dela min skärm' }).click();
  await expect.poll(() => toolbar(taker).textContent()).toContain('Du delar skärm');
  // Nothing in the error panel: the takeover is everyone's who may share, not a refusal.
  expect(await taker.locator('.error-banner').count()).toBe(0);
  for (const p of others) {
    await expect.poll(() => toolbar(p).textContent()).toContain(`${takerName} delar skärm`);
    await expect.poll(() => p.locator(`.tile[data-stream-id="screen-${sharerId}"]`).count()).toBe(0);
    await expect.poll(() => p.locator(`.main-grid.focus > .tile[data-stream-id="screen-${takerId}"]`).count()).toBe(1);
    await keepsDecoding(p, `screen-${takerId}`);
  }
}

beforeAll(async () => {
  await bench.start();
  // Karin's computer has a touch screen as well as a mouse.
  const touch = async () => {
    const { page } = await bench.newPage({ hasTouch: true });
    await loginAs(page, 'karin');
    return page;
  };
  // No grant by an administrator: every group may share a screen by default (Grupper withdraws it per group).
  [erik, jonna, karin] = await Promise.all([bench.person('erik'), bench.person('jonna'), touch()]);
  meeting = await book(erik, {
    // Karin (a KA user) takes part as the agency's contractor.
    participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN, KARIN_AS_CONTRACTOR],
  });
}, 300_000);
afterAll(async () => bench.stop());

describe('screen sharing', () => {
  it("the caseworker shares; the job seeker takes over after confirming, he takes it back, the contractor takes over from him", async () => {
    for (const p of [erik, jonna, karin]) await enter(p, meeting.id);
    for (const p of [erik, jonna, karin]) await expect.poll(() => status(p).textContent(), { timeout: 60_000 }).toBe('3 personer deltar i mötet');
    const [erikId, jonnaId] = [await connectionIdOf(erik), await connectionIdOf(jonna)];
    await erik.getByRole('button', { name: 'Dela skärm' }).click({ timeout: 30_000 });
    await expect.poll(() => toolbar(erik).textContent()).toContain('Du delar skärm');
    await expect.poll(() => erik.getByRole('button', { name: 'Avsluta skärmdelning' }).count()).toBe(1);
    for (const p of [jonna, karin]) {
      await expect.poll(() => toolbar(p).textContent()).toContain('Erik Handläggare delar skärm');
      // A new remote share takes the focus, with minis shown.
      await expect.poll(() => p.locator(`.main-grid.focus > .tile[data-stream-id="screen-${erikId}"]`).count()).toBe(1);
      await expect.poll(() => p.locator('.tile', { hasText: 'Erik Handläggare delar skärm' }).count()).toBeGreaterThan(0);
      await keepsDecoding(p, `screen-${erikId}`);
    }
    expect(await karin.getByRole('button', { name: 'Minimera delning' }).count()).toBe(1);
    // Minis hidden (double-click): the sharer's camera joins the focused share in the main area.
    await expect.poll(() => karin.locator('.side-tiles .tile').count()).toBeGreaterThan(0);
    await karin.locator('.video-area').dblclick();
    await expect.poll(() => karin.locator('.side-tiles .tile').count()).toBe(0);
    await expect.poll(() => karin.locator(`.main-grid.focus-with-camera > .tile[data-stream-id="camera-${erikId}"]`).count()).toBe(1);
    // A touch on the video area toggles them too (spec §2); a mouse click does not, nor a touch on a tile's button.
    await karin.locator('.main-grid').tap({ position: { x: 40, y: 40 } });
    await expect.poll(() => karin.locator('.side-tiles .tile').count()).toBeGreaterThan(0);
    await karin.locator('.main-grid').click({ position: { x: 40, y: 40 } });
    await karin.locator('.side-tiles').getByRole('button', { name: /^Fäst / }).first().tap();
    await karin.getByRole('button', { name: /^Lossa / }).first().tap();
    await expect.poll(() => karin.getByRole('button', { name: /^Lossa / }).count()).toBe(0);
    expect(await karin.locator('.side-tiles .tile').count()).toBeGreaterThan(0);
    await karin.locator('.main-grid').tap({ position: { x: 40, y: 40 } });
    await expect.poll(() => karin.locator('.side-tiles .tile').count()).toBe(0);
    await karin.getByRole('button', { name: 'Minimera delning' }).click();
    await expect.poll(() => karin.getByRole('button', { name: 'Maximera delning' }).count()).toBe(1);
    expect(await karin.locator('.main-grid.focus').count()).toBe(0);
    await karin.getByRole('button', { name: 'Maximera delning' }).click();
    await expect.poll(() => karin.locator(`.main-grid.focus > .tile[data-stream-id="screen-${erikId}"]`).count()).toBe(1);

    // The job seeker asks; cancelling changes nothing.
    await jonna.getByRole('button', { name: 'Dela skärm' }).click();
    const prompt = jonna.getByRole('alertdialog', { name: 'Erik Handläggare delar redan sin skärm. Vill du ta över skärmdelningen?' });
    await expect.poll(() => prompt.count()).toBe(1);
    expect(await prompt.getByRole('button', { name: 'Ja, dela min skärm' }).count()).toBe(1);
    expect(await seriousAxeViolations(jonna)).toEqual([]);
    await screenshot(jonna, 'sharing-takeover-confirmation');
    await jonna.getByRole('button', { name: 'Avbryt' }).click();
    await expect.poll(() => prompt.count()).toBe(0);
    expect(await erik.getByRole('button', { name: 'Avsluta skärmdelning' }).count()).toBe(1);

    // A modified client that skips the takeover: its screen offer is refused by the relay while Erik shares.
    const skipped = await rawPublishAttempt(jonna, { meetingId: meeting.id, opaqueId: SCREEN_HANDLE_TAG, offerVideo: true });
    expect(skipped.joined.janus).toBe('event');
    expect(skipped.published).toMatchObject({ janus: 'error', error: { code: 403, reason: expect.stringContaining('take over first') } });
    expect(await erik.getByRole('button', { name: 'Avsluta skärmdelning' }).count()).toBe(1);

    // The job seeker takes over the caseworker's share after the confirmation: the server stops his, hers starts.
    const karinId = await connectionIdOf(karin);
    await takeOver(jonna, 'Jonna Sökande', jonnaId, 'Erik Handläggare', erikId, [erik, karin]);
    await expect.poll(() => erik.getByRole('button', { name: 'Dela skärm' }).count()).toBe(1);
    expect(await toolbar(erik).textContent()).not.toContain('Du delar skärm');
    // The new share takes the focus for the others, with minis shown (Karin had hidden hers).
    await expect.poll(() => karin.locator('.side-tiles .tile').count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(karin)).toEqual([]);

    // The caseworker takes it back the same way, and the contractor then takes over from him.
    await takeOver(erik, 'Erik Handläggare', erikId, 'Jonna Sökande', jonnaId, [jonna, karin]);
    await expect.poll(() => jonna.getByRole('button', { name: 'Dela skärm' }).count()).toBe(1);
    await takeOver(karin, 'Karin Kompletterande', karinId, 'Erik Handläggare', erikId, [erik, jonna]);

    // Ending the own share: isSharingScreen false, and the others' screens drop the tile.
    await karin.getByRole('button', { name: 'Avsluta skärmdelning' }).click();
    await expect.poll(() => karin.getByRole('button', { name: 'Dela skärm' }).count()).toBe(1);
    for (const p of [erik, jonna]) await expect.poll(() => p.locator(`.tile[data-stream-id="screen-${karinId}"]`).count()).toBe(0);
    expect(await toolbar(erik).textContent()).not.toContain('delar skärm');
  }, 420_000);

  it('the server refuses a takeover by someone who may not share', async () => {
    // Webcast viewers cannot publish, hence no forceUnpublish: covered by capabilities; here a stranger to the meeting.
    const fredrik = await bench.person('fredrik');
    const erikId = await connectionIdOf(erik);
    const res = await apiCall(fredrik, 'POST', `/api/media/${meeting.id}/forceunpublish`, { connectionId: erikId });
    expect(res.status, res.body).toBe(403);
  }, 120_000);

  it('a share by someone whose camera could not be opened is announced as a screen share, not as a camera', async () => {
    // Jonna's camera and microphone fail (busy elsewhere): she has no camera publisher at all when she shares.
    await jonna.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Could not start video source', 'NotReadableError'));
    });
    await enter(jonna, meeting.id);
    await expect.poll(() => jonna.getByRole('button', { name: 'Slå på din kamera' }).count()).toBe(0);
    const jonnaId = await connectionIdOf(jonna);
    await jonna.getByRole('button', { name: 'Dela skärm' }).click({ timeout: 30_000 });
    await expect.poll(() => toolbar(jonna).textContent()).toContain('Du delar skärm');
    for (const p of [erik, karin]) {
      await expect.poll(() => toolbar(p).textContent()).toContain('Jonna Sökande delar skärm');
      const share = p.locator(`.tile[data-stream-id="screen-${jonnaId}"]`);
      await expect.poll(() => share.getAttribute('data-video-type', { timeout: 1_000 }).catch(() => null)).toBe('screen');
      expect(await share.locator('.tile__name').textContent()).toBe('Jonna Sökande delar skärm');
      await expect.poll(() => p.locator(`.main-grid.focus > .tile[data-stream-id="screen-${jonnaId}"]`).count()).toBe(1);
      // No camera tile (with an initials poster) stands in for the share.
      expect(await p.locator(`.tile[data-stream-id="camera-${jonnaId}"]`).count()).toBe(0);
      await keepsDecoding(p, `screen-${jonnaId}`);
    }
    expect(await seriousAxeViolations(erik)).toEqual([]);
    await jonna.getByRole('button', { name: 'Avsluta skärmdelning' }).click();
    for (const p of [erik, karin]) await expect.poll(() => toolbar(p).textContent()).not.toContain('delar skärm');
  }, 180_000);

  it('withdrawn from externals in Grupper: the job seeker has no button, and the relay refuses her share', async () => {
    const anna = await bench.person('anna');
    const withdrawn = await apiCall(anna, 'PUT', '/api/admin/groups', { grants: [{ role: 'Participant', features: [], isAdmin: false }] });
    expect(withdrawn.status, withdrawn.body).toBe(200);
    await anna.context().close();
    // Grupper applies at the next login.
    await jonna.context().clearCookies();
    await loginAs(jonna, 'jonna');
    await enter(jonna, meeting.id);
    // She still publishes (camera and microphone), but may not share: no button.
    const capabilities = await jonna.evaluate(() => (window as unknown as { __videomoteTest: { model: { getState(): { capabilities: Record<string, boolean> } } } }).__videomoteTest.model.getState().capabilities);
    expect(capabilities).toMatchObject({ publish: true, screenShare: false, forceUnpublish: false });
    expect(await jonna.getByRole('button', { name: 'Lägg på' }).count()).toBe(1);
    expect(await jonna.getByRole('button', { name: 'Dela skärm' }).count()).toBe(0);
    // A screen publish from a modified client is refused at the join.
    const refused = await rawPublishAttempt(jonna, { meetingId: meeting.id, opaqueId: SCREEN_HANDLE_TAG });
    expect(refused.joined).toMatchObject({ janus: 'error', error: { code: 403, reason: expect.stringContaining('no screen-share capability') } });
    expect(refused.published).toBeUndefined();
    // The caseworker keeps his.
    expect(await erik.getByRole('button', { name: 'Dela skärm' }).count()).toBe(1);
  }, 180_000);
});
