import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { loadClips } from '@videomote/synthetic/clips';
import { Pacer } from '@videomote/synthetic/pacer';
import { SyntheticParticipant } from '@videomote/synthetic/participant';
import { useBench } from './support/bench.ts';
import { enter, inbound, keepsDecoding } from './support/call.ts';
import { dataDirWithMeeting, ERIK_WITH_JONNA } from './support/seed.ts';

// The synthetic participant (packages/synthetic) joins as a person does and publishes pre-encoded VP8 simulcast and
// Opus, every frame sealed with the meeting key by the web app's own frame-crypto. A real Chromium page (Erik's)
// decodes its video. A second synthetic participant (Karin) joins the same way but seals with a wrong key: the page
// receives her packets and decodes nothing, so the first one's frames are decoded only because they are sealed
// exactly as a browser seals them.
vi.setConfig({ expect: { poll: { timeout: 45_000, interval: 500 } } });

let meeting: { id: string };
const bench = useBench(async () => {
  const seeded = await dataDirWithMeeting([...ERIK_WITH_JONNA, { persona: 'karin', role: 'PrivateContractor' }]);
  meeting = seeded.meeting;
  return { dataDir: seeded.dataDir };
});
const pacer = new Pacer();
const synthetic: SyntheticParticipant[] = [];
afterAll(() => {
  for (const s of synthetic) s.close();
  pacer.stop();
});

interface Counts {
  decrypted: number;
  failed: number;
}
const countsOf = (page: Page) => page.evaluate(() => (window as unknown as { __videomoteTest: { session: { e2ee: { counts(): Promise<Counts | null> } } } }).__videomoteTest.session.e2ee.counts());

/** The page's inbound video of one connection's camera: frames decoded, packets, and the decoded size. */
const videoOf = (page: Page, connectionId: string) =>
  page.evaluate(async (id) => {
    const hook = (window as unknown as { __videomoteTest: { session: { peerConnections(): { role: string; streamId: string; pc: RTCPeerConnection; mids?: string[] }[] } } }).__videomoteTest;
    const out = { frames: 0, packets: 0, width: 0 };
    for (const { role, streamId, pc, mids } of hook.session.peerConnections()) {
      if (role !== 'subscriber' || streamId !== `camera-${id}`) continue;
      (await pc.getStats()).forEach((s: { type: string; kind?: string; mid?: string; framesDecoded?: number; packetsReceived?: number; frameWidth?: number }) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'video' || (mids && !mids.includes(String(s.mid)))) return;
        out.frames += s.framesDecoded ?? 0;
        out.packets += s.packetsReceived ?? 0;
        out.width = Math.max(out.width, s.frameWidth ?? 0);
      });
    }
    return out;
  }, connectionId);

describe('synthetic participants', () => {
  it("shows a synthetic publisher's encrypted simulcast video on a real page, and decodes nothing sealed with a wrong key", async () => {
    const erik = await bench.person('erik');
    await enter(erik, meeting.id);
    const clips = loadClips();
    const wrongKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    const [jonna, karin] = await Promise.all([
      SyntheticParticipant.join({ base: bench.server.url, meetingId: meeting.id, login: { persona: 'jonna' } }),
      SyntheticParticipant.join({ base: bench.server.url, meetingId: meeting.id, login: { persona: 'karin' }, wrongKey }),
    ]);
    synthetic.push(jonna, karin);
    const [jonnaPub, karinPub] = await Promise.all([jonna.publish(clips, pacer), karin.publish(clips, pacer)]);

    // Jonna's frames open in the page's E2EE worker and its decoder produces frames.
    await keepsDecoding(erik, `camera-${jonna.connectionId}`);
    // Karin's packets reach the page, and some seconds (several key frames) later it has still decoded none of them.
    await expect.poll(async () => (await videoOf(erik, karin.connectionId)).packets).toBeGreaterThan(200);
    await new Promise((r) => setTimeout(r, 4_000));
    const [jonnaSeen, karinSeen, counts] = await Promise.all([videoOf(erik, jonna.connectionId), videoOf(erik, karin.connectionId), countsOf(erik)]);
    const report = pacer.report();
    console.log('page decodes', { jonna: jonnaSeen, karin: karinSeen, transform: counts, inbound: await inbound(erik) });
    console.log('generator', { jonna: jonnaPub.framesSent(), karin: karinPub.framesSent(), jonnaStats: jonnaPub.stats, sealer: jonna.sealer.counts, pacer: report });
    expect(jonnaSeen.frames).toBeGreaterThan(30);
    expect(jonnaSeen.width).toBeGreaterThan(0);
    expect(karinSeen.frames).toBe(0);
    expect(counts!.decrypted).toBeGreaterThan(30);
    expect(counts!.failed).toBeGreaterThan(30);
    // Every frame the generator sent was sealed: nothing plain went to Janus.
    expect(jonna.sealer.counts.plainSent).toBe(0);
    expect(jonna.sealer.counts.encrypted).toBeGreaterThan(100);
  });
});
