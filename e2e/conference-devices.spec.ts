import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { book, CallBench, connectionIdOf, enter, keepsDecoding, status } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';

// Device settings, background blur and the publisher restart (conference spec §2, §4, §9).
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 250 } } });

const bench = new CallBench();
let erik: Page; // three fake cameras
let jonna: Page; // watches
let karin: Page; // a camera that films a fine checkerboard (a file), so blur is measurable
let meeting: { id: string };
const FAKE = '--use-fake-device-for-media-stream';

/** A 640x360 Y4M clip of an 8 px checkerboard: lots of high-frequency detail everywhere in the frame. */
function checkerboardClip(): string {
  const w = 640;
  const h = 360;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vm-cam-')), 'checker.y4m');
  const y = Buffer.alloc(w * h);
  for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) y[r * w + c] = ((r >> 3) + (c >> 3)) % 2 ? 235 : 16;
  const uv = Buffer.alloc((w / 2) * (h / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, uv, uv]);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\n`), frame, frame]));
  return file;
}

beforeAll(async () => {
  await bench.start();
  const twoCameras = await bench.launch({ [FAKE]: `${FAKE}=device-count=3` });
  const fileCamera = await bench.launch({ file: `--use-file-for-fake-video-capture=${checkerboardClip()}` });
  [erik, jonna, karin] = await Promise.all([bench.person('erik', twoCameras), bench.person('jonna'), bench.person('karin', fileCamera)]);
  meeting = await book(erik, {
    participants: [
      { currentUser: true, role: 'EmploymentOfficer', isAdmin: true },
      { role: 'JobSeeker', displayName: 'Jonna Sökande', pin: '19900101-2385' },
      { role: 'ExternalParticipant', displayName: 'Karin Kompletterande', pin: '19850709-9805' },
    ],
  });
}, 300_000);
afterAll(async () => bench.stop());

/** The publisher PeerConnection and the deviceId of what its video sender sends. */
const publisherInfo = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __videomoteTest: { session: { peerConnections(): { role: string; streamId: string; pc: RTCPeerConnection }[] } }; __pcs?: RTCPeerConnection[] };
    const pc = w.__videomoteTest.session.peerConnections().find((x) => x.streamId === 'own-camera')?.pc;
    w.__pcs ??= [];
    if (pc && !w.__pcs.includes(pc)) w.__pcs.push(pc);
    const track = pc?.getSenders().find((s) => s.track?.kind === 'video')?.track;
    return { pcIndex: pc ? w.__pcs.indexOf(pc) : -1, deviceId: track?.getSettings().deviceId ?? null, label: track?.label ?? null };
  });

async function cameraOn(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 60_000 });
  await expect.poll(() => page.getByRole('button', { name: 'Stäng av din kamera' }).count()).toBe(1);
}

/**
 * Mean absolute Laplacian of the luminance of the remote tile's current frame, in the side bands (outside the
 * sharp centre ellipse) and in the centre: how much fine detail the received picture holds.
 */
function detail(page: Page, streamId: string): Promise<{ sides: number; centre: number; width: number }> {
  return page.evaluate((id) => {
    const video = document.querySelector<HTMLVideoElement>(`.tile[data-stream-id="${id}"] video`);
    if (!video || !video.videoWidth) return { sides: -1, centre: -1, width: 0 };
    const w = video.videoWidth;
    const h = video.videoHeight;
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(video, 0, 0, w, h);
    const px = ctx.getImageData(0, 0, w, h).data;
    const lum = (x: number, y: number) => {
      const i = (y * w + x) * 4;
      return 0.299 * px[i]! + 0.587 * px[i + 1]! + 0.114 * px[i + 2]!;
    };
    const energy = (x0: number, x1: number, y0: number, y1: number) => {
      let sum = 0;
      let n = 0;
      for (let y = Math.max(1, y0); y < Math.min(h - 1, y1); y += 2) {
        for (let x = Math.max(1, x0); x < Math.min(w - 1, x1); x += 2) {
          sum += Math.abs(4 * lum(x, y) - lum(x - 1, y) - lum(x + 1, y) - lum(x, y - 1) - lum(x, y + 1));
          n++;
        }
      }
      return n ? sum / n : 0;
    };
    const sides = (energy(0, Math.round(w * 0.18), 0, h) + energy(Math.round(w * 0.82), w, 0, h)) / 2;
    const centre = energy(Math.round(w * 0.42), Math.round(w * 0.58), Math.round(h * 0.35), Math.round(h * 0.75));
    return { sides, centre, width: w };
  }, streamId);
}

describe('devices, blur and publisher restart', () => {
  it('switching the camera in the settings keeps the call up; the remote side keeps decoding; the choice is kept by label', async () => {
    for (const p of [erik, jonna]) await enter(p, meeting.id);
    for (const p of [erik, jonna]) await expect.poll(() => status(p).textContent(), { timeout: 60_000 }).toBe('2 personer deltar i mötet');
    await cameraOn(erik);
    const erikId = await connectionIdOf(erik);
    await keepsDecoding(jonna, `camera-${erikId}`);
    const before = await publisherInfo(erik);

    await erik.getByRole('button', { name: 'Inställningar' }).click();
    const dialog = erik.getByRole('dialog', { name: 'Inställningar för ljud och bild' });
    await expect.poll(() => dialog.count()).toBe(1);
    const cameras = dialog.getByRole('combobox', { name: 'Välj videokälla' });
    await expect.poll(() => cameras.locator('option').count()).toBe(3);
    expect(await dialog.getByRole('combobox', { name: 'Välj ljudkälla' }).count()).toBe(1);
    expect(await seriousAxeViolations(erik)).toEqual([]);
    const options = await cameras.locator('option').evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, label: o.textContent ?? '' })));
    // Chromium's second fake camera is a depth camera (Y16); its third films in colour like the first.
    const other = options.find((o) => o.value !== before.deviceId && o.label === 'fake_device_2') ?? options.find((o) => o.value !== before.deviceId)!;
    await cameras.selectOption(other.value);

    // Same PeerConnection (no renegotiation), the other camera on its sender, media keeps flowing.
    await expect.poll(async () => (await publisherInfo(erik)).deviceId).toBe(other.value);
    expect((await publisherInfo(erik)).pcIndex).toBe(before.pcIndex);
    await keepsDecoding(jonna, `camera-${erikId}`);
    expect(await status(jonna).textContent()).toBe('2 personer deltar i mötet');
    expect(await erik.evaluate(() => localStorage.getItem('video_device'))).toBe(JSON.stringify(other.label));

    // A camera that cannot be opened (busy elsewhere): the spec's texts, and the call goes on with the old one.
    await erik.evaluate(() => {
      const md = navigator.mediaDevices as MediaDevices & { __real?: MediaDevices['getUserMedia'] };
      md.__real = md.getUserMedia.bind(md);
      md.getUserMedia = () => Promise.reject(new DOMException('Could not start video source', 'NotReadableError'));
    });
    const first = options.find((o) => o.value === before.deviceId)!;
    await cameras.selectOption(first.value);
    const alert = dialog.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Lyckades inte komma åt din kamera. Kontrollera att dina enheter inte används av en annan applikation och försök igen.');
    expect((await publisherInfo(erik)).deviceId).toBe(other.value);
    await keepsDecoding(jonna, `camera-${erikId}`);
    await erik.evaluate(() => {
      const md = navigator.mediaDevices as MediaDevices & { __real?: MediaDevices['getUserMedia'] };
      md.getUserMedia = md.__real!;
    });
    expect(await erik.evaluate(() => localStorage.getItem('video_device'))).toBe(JSON.stringify(other.label));

    await dialog.getByRole('button', { name: 'Stäng' }).first().click();
    await expect.poll(() => dialog.count()).toBe(0);

    // Next time the stored label picks the camera, case-insensitively.
    await erik.evaluate((label) => localStorage.setItem('video_device', JSON.stringify(label.toUpperCase())), other.label);
    await enter(erik, meeting.id);
    await cameraOn(erik);
    await expect.poll(async () => (await publisherInfo(erik)).label).toBe(other.label);
  }, 300_000);

  it('blur changes what the remote side receives (less fine detail outside the centre) and survives a reload', async () => {
    await enter(karin, meeting.id);
    await cameraOn(karin);
    let karinId = await connectionIdOf(karin);
    await keepsDecoding(jonna, `camera-${karinId}`);
    await expect.poll(async () => (await detail(jonna, `camera-${karinId}`)).sides, { timeout: 60_000 }).toBeGreaterThan(0);
    // Let the encoder settle on a sharp picture first.
    await new Promise((r) => setTimeout(r, 3_000));
    const sharp = await detail(jonna, `camera-${karinId}`);

    await karin.getByRole('button', { name: 'Suddig bakgrund' }).click();
    await expect.poll(() => karin.getByRole('button', { name: 'Normal bakgrund' }).count()).toBe(1);
    expect(await karin.evaluate(() => localStorage.getItem('useBlur'))).toBe('true');
    await expect.poll(async () => (await detail(jonna, `camera-${karinId}`)).sides, { timeout: 60_000 }).toBeLessThan(sharp.sides * 0.3);
    const blurred = await detail(jonna, `camera-${karinId}`);
    console.log(`blur: side-band detail ${sharp.sides.toFixed(1)} -> ${blurred.sides.toFixed(1)}, centre ${sharp.centre.toFixed(1)} -> ${blurred.centre.toFixed(1)} (frame width ${blurred.width})`);
    // The centre (where the person sits) stays sharp.
    expect(blurred.centre).toBeGreaterThan(sharp.centre * 0.5);

    await enter(karin, meeting.id);
    await expect.poll(() => karin.getByRole('button', { name: 'Normal bakgrund' }).count(), { timeout: 60_000 }).toBe(1);
    await cameraOn(karin);
    karinId = await connectionIdOf(karin);
    await keepsDecoding(jonna, `camera-${karinId}`);
    await expect.poll(async () => {
      const d = await detail(jonna, `camera-${karinId}`);
      return d.sides >= 0 && d.sides < sharp.sides * 0.3;
    }, { timeout: 60_000 }).toBe(true);
    expect(await seriousAxeViolations(karin)).toEqual([]);
  }, 300_000);

  it('the own publisher dies (its PeerConnection closed): PUBLISHER_RESTARTING, restart after 1 s, the others see it again', async () => {
    const erikId = await connectionIdOf(erik);
    await keepsDecoding(jonna, `camera-${erikId}`);
    const before = await publisherInfo(erik);
    await erik.evaluate(() => {
      const w = window as unknown as { __videomoteTest: { session: { peerConnections(): { streamId: string; pc: RTCPeerConnection }[] } } };
      w.__videomoteTest.session.peerConnections().find((x) => x.streamId === 'own-camera')!.pc.close();
    });
    const banner = erik.locator('[data-error-key="PUBLISHER_RESTARTING"]');
    await expect.poll(() => banner.count()).toBe(1);
    expect(await banner.textContent()).toContain('Din videoström bröts, startar om automatiskt. Du kan behöva aktivera din kamera och mikrofon igen.');
    await expect.poll(async () => (await publisherInfo(erik)).pcIndex, { timeout: 60_000 }).toBeGreaterThan(before.pcIndex);
    await expect.poll(() => banner.count(), { timeout: 60_000 }).toBe(0);
    await keepsDecoding(jonna, `camera-${erikId}`, 60_000);
    expect(await status(erik).textContent()).toBe('3 personer deltar i mötet');
  }, 300_000);
});
