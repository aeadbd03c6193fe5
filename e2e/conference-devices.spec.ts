import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { book, CallBench, connectionIdOf, enter, keepsDecoding, status } from './support/call.ts';
import { seriousAxeViolations } from './support/axe.ts';

// Device settings and the publisher restart (conference spec §2, §4, §9). Background blur: conference-blur.spec.ts.
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 250 } } });

const bench = new CallBench();
let erik: Page; // three fake cameras
let jonna: Page; // watches
let meeting: { id: string };
const FAKE = '--use-fake-device-for-media-stream';

beforeAll(async () => {
  await bench.start();
  const twoCameras = await bench.launch({ [FAKE]: `${FAKE}=device-count=3` });
  [erik, jonna] = await Promise.all([bench.person('erik', twoCameras), bench.person('jonna')]);
  meeting = await book(erik, {
    participants: [
      { currentUser: true, role: 'EmploymentOfficer', isAdmin: true },
      { role: 'JobSeeker', displayName: 'Jonna Sökande', pin: '19900101-2385' },
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

describe('devices and publisher restart', () => {
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
    expect(await status(erik).textContent()).toBe('2 personer deltar i mötet');
  }, 300_000);

  it('a subscription whose connection never carries media is asked for again, and the tile plays', async () => {
    const erikId = await connectionIdOf(erik);
    // Jonna's first subscriber connection gets no ICE candidates either way: it can never carry a packet.
    await jonna.addInitScript(() => {
      const w = window as unknown as { __starved: number; __subscriberPcs: number };
      w.__starved = 0;
      w.__subscriberPcs = 0;
      const starved = new WeakSet<RTCPeerConnection>();
      const seen = new WeakSet<RTCPeerConnection>();
      const proto = RTCPeerConnection.prototype;
      const setRemote = proto.setRemoteDescription;
      proto.setRemoteDescription = function (this: RTCPeerConnection, d: RTCSessionDescriptionInit) {
        if (d?.type === 'offer' && starved.has(this)) {
          d = { type: d.type, sdp: d.sdp!.split('\r\n').filter((l) => !l.startsWith('a=candidate')).join('\r\n') };
        } else if (d?.type === 'offer' && !seen.has(this)) {
          seen.add(this);
          w.__subscriberPcs += 1;
          if (w.__starved === 0) {
            w.__starved = 1;
            starved.add(this);
            d = { type: d.type, sdp: d.sdp!.split('\r\n').filter((l) => !l.startsWith('a=candidate')).join('\r\n') };
          }
        }
        return Reflect.apply(setRemote, this, [d]) as Promise<void>;
      } as typeof setRemote;
      const addCandidate = proto.addIceCandidate;
      proto.addIceCandidate = function (this: RTCPeerConnection, c?: RTCIceCandidateInit | null) {
        return starved.has(this) ? Promise.resolve() : (Reflect.apply(addCandidate, this, [c]) as Promise<void>);
      } as typeof addCandidate;
      const onCandidate = Object.getOwnPropertyDescriptor(proto, 'onicecandidate')!;
      Object.defineProperty(proto, 'onicecandidate', {
        ...onCandidate,
        set(this: RTCPeerConnection, fn: ((e: RTCPeerConnectionIceEvent) => void) | null) {
          onCandidate.set!.call(this, (e: RTCPeerConnectionIceEvent) => (starved.has(this) ? undefined : fn?.(e)));
        },
      });
    });
    await enter(jonna, meeting.id);
    await expect.poll(() => jonna.evaluate(() => (window as unknown as { __starved: number }).__starved)).toBe(1);
    // ICE never connects: one ICE restart on the same connection (15 s, still starved), then a new subscriber
    // connection is built (15 s more), and that one plays. No connection error: the publisher's connection works.
    await keepsDecoding(jonna, `camera-${erikId}`, 90_000);
    expect(await jonna.evaluate(() => (window as unknown as { __subscriberPcs: number }).__subscriberPcs)).toBeGreaterThanOrEqual(2);
    expect(await status(jonna).textContent()).toBe('2 personer deltar i mötet');
  }, 300_000);
});
