import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { BOOKER_AS_OFFICER, JONNA_BY_PIN } from './support/booking.ts';
import { book, CallBench, connectionIdOf, enter, keepsDecoding } from './support/call.ts';

// Simulcast, two people: Erik's camera goes out as three VP8 layers (rids h, m, l) through the real Janus, still
// end-to-end encrypted; Jonna's page asks Janus for the layer that fits Erik's tile on her screen: the full size
// when she focuses him on a large window, the lowest when his tile is small. Measured from getStats on both sides.
vi.setConfig({ expect: { poll: { timeout: 45_000, interval: 500 } } });

const bench = new CallBench();
let erik: Page;
let jonna: Page;
let meeting: { id: string };

interface Outbound {
  rid: string;
  frameWidth: number;
  framesEncoded: number;
  /** Chromium's reason for sending less than asked: 'cpu' when the machine cannot encode more. */
  qualityLimitationReason: string;
}

/** The own camera publisher's video encodings (one outbound-rtp per simulcast layer). */
const outboundVideo = (page: Page): Promise<Outbound[]> =>
  page.evaluate(async () => {
    const hook = (window as unknown as { __videomoteTest: { session: { peerConnections(): { streamId: string; pc: RTCPeerConnection }[] } } }).__videomoteTest;
    const pub = hook.session.peerConnections().find((c) => c.streamId === 'own-camera');
    const out: Outbound[] = [];
    (await pub?.pc.getStats())?.forEach((r: { type: string; kind?: string; rid?: string; frameWidth?: number; framesEncoded?: number; qualityLimitationReason?: string }) => {
      if (r.type === 'outbound-rtp' && r.kind === 'video') {
        out.push({ rid: r.rid ?? '', frameWidth: r.frameWidth ?? 0, framesEncoded: r.framesEncoded ?? 0, qualityLimitationReason: r.qualityLimitationReason ?? 'none' });
      }
    });
    return out.sort((a, b) => a.rid.localeCompare(b.rid));
  });

/** The width of the frames decoded of one received stream, and the layer the call model says is received. */
const received = (page: Page, streamId: string) =>
  page.evaluate(async (id) => {
    const hook = (window as unknown as {
      __videomoteTest: { session: { peerConnections(): { role: string; streamId: string; pc: RTCPeerConnection; mids?: string[] }[] }; model: { getState(): { videoLayers: Record<string, unknown> } } };
    }).__videomoteTest;
    let frameWidth = 0;
    let framesDecoded = 0;
    for (const { role, streamId, pc, mids } of hook.session.peerConnections()) {
      if (role !== 'subscriber' || streamId !== id) continue;
      (await pc.getStats()).forEach((r: { type: string; kind?: string; mid?: string; frameWidth?: number; framesDecoded?: number }) => {
        if (r.type !== 'inbound-rtp' || r.kind !== 'video' || (mids && !mids.includes(String(r.mid)))) return;
        frameWidth = r.frameWidth ?? 0;
        framesDecoded += r.framesDecoded ?? 0;
      });
    }
    return { frameWidth, framesDecoded, layer: hook.model.getState().videoLayers[id] ?? null };
  }, streamId);

const e2eeCounts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __videomoteTest: { session: { e2ee: { counts(): Promise<{ decrypted: number; failed: number } | null> } } } }).__videomoteTest.session.e2ee.counts());

beforeAll(async () => {
  await bench.start();
  const other = await bench.launch({});
  [erik, jonna] = await Promise.all([bench.person('erik'), bench.person('jonna', other)]);
  meeting = await book(erik, { participants: [BOOKER_AS_OFFICER, JONNA_BY_PIN] });
}, 300_000);
afterAll(async () => bench.stop());

describe('simulcast', () => {
  it('sends three encrypted layers and gives the viewer the one its tile needs', async () => {
    await jonna.setViewportSize({ width: 1280, height: 800 });
    await Promise.all([enter(erik, meeting.id), enter(jonna, meeting.id)]);
    await erik.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 15_000 });
    const erikStream = `camera-${await connectionIdOf(erik)}`;
    await keepsDecoding(jonna, erikStream);

    // Three encodings leave Erik's browser, each its own size: full, half, quarter.
    await expect.poll(async () => (await outboundVideo(erik)).filter((o) => o.framesEncoded > 0).map((o) => o.rid)).toEqual(['h', 'l', 'm']);
    // The top layer at 640 wide or more, unless Chromium says the machine's CPU holds every layer down (it scales
    // them all alike: seen at 480 on a loaded 2-core CI machine). While the bandwidth estimate still ramps up the top
    // layer may be held at the middle one's size (CI: 640, 640, 320 after 13 frames): the sizes are read once that
    // has passed. They are read afresh at each comparison below.
    const width = async (rid: string) => (await outboundVideo(erik)).find((o) => o.rid === rid)!.frameWidth;
    await expect
      .poll(async () => {
        const layers = await outboundVideo(erik);
        const top = layers.find((o) => o.rid === 'h')!;
        const rampingUp = top.qualityLimitationReason === 'bandwidth' && layers.find((o) => o.rid === 'm')!.frameWidth === top.frameWidth;
        return !rampingUp && (top.frameWidth >= 640 || top.qualityLimitationReason === 'cpu');
      })
      .toBe(true);
    const layers = await outboundVideo(erik);
    console.log('Erik sends', layers);
    const sent = (rid: string) => layers.find((o) => o.rid === rid)!.frameWidth;
    expect(sent('h')).toBeGreaterThanOrEqual(320);
    expect(sent('m')).toBe(sent('h') / 2);
    expect(sent('l')).toBe(sent('h') / 4);

    // Jonna focuses Erik on a large window: the top layer.
    await jonna.getByRole('button', { name: /^Maximera Erik/ }).click();
    // (Janus forwards the top layer until told otherwise: wait for its word that it switched, then for the frames.)
    await expect.poll(async () => (await received(jonna, erikStream)).layer).toMatchObject({ off: null, substream: 2, temporal: 2 });
    await expect.poll(async () => (await received(jonna, erikStream)).frameWidth === (await width('h'))).toBe(true);
    console.log('focused on a large window, Jonna receives', await received(jonna, erikStream));

    // Back in the grid, on a small window: the lowest layer is enough for that tile.
    await jonna.getByRole('button', { name: /^Minimera Erik/ }).click();
    await jonna.setViewportSize({ width: 480, height: 300 });
    await expect.poll(async () => (await received(jonna, erikStream)).layer).toMatchObject({ off: null, substream: 0 });
    await expect.poll(async () => (await received(jonna, erikStream)).frameWidth === (await width('l'))).toBe(true);
    console.log('a small tile, Jonna receives', await received(jonna, erikStream));

    // Every layer switch went on decrypting: frames keep coming, and none failed to open.
    await keepsDecoding(jonna, erikStream);
    const counts = (await e2eeCounts(jonna))!;
    console.log('Jonna decrypts', counts);
    expect(counts.decrypted).toBeGreaterThan(100);
    expect(counts.failed).toBe(0);
  }, 240_000);
});
