import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CallBench, connectionIdOf, enter, keepsDecoding, withoutMicrophone } from './support/call.ts';
import { ClientTopology, SERVER_ADDRESS, type Client } from './support/client-netns.ts';
import { movingBarClip, testPin } from './support/fake-camera.ts';
import { dataDirWithMeeting } from './support/seed.ts';
import { startServer } from './support/server.ts';

// Adaptive quality on a real-shaped network (support/client-netns.ts): publishers in one Chromium on c1 (one of them
// the booked sign-language interpreter, one also sharing a screen), an unshaped viewer on c2 and a viewer on c3 whose
// downlink is held to 500 kbit/s by `tc tbf` on its veth. Everything measured from getStats on the pages.
// The publishers' own pages count as hidden tabs: they receive audio only (the layer choice pauses the video of a
// tab nobody sees).
//
// Opt-in (ADAPTIVE_E2E=1): on a 2-core machine it passes only some of its runs, and a red run would hold back
// everything else. Three publishers: Erik (screen share and a small camera), Fredrik (the stream both viewers focus)
// and the interpreter; ADAPTIVE_E2E_FULL=1 adds the five (Karin and Maja: small cameras, no microphones).
// Fredrik's camera is held to 15 frames/s and the share to SCREEN_SHARE_FPS=5 (Jitsi's default for a share) to leave
// the interpreter's publisher room on the shared cores. The runs and what each showed: docs/benchmark-history.md.
vi.setConfig({ expect: { poll: { timeout: 60_000, interval: 500 } } });

const FAKE = '--use-fake-device-for-media-stream';
const INTERPRETER = 'Tina Tolk';

class NetBench extends CallBench {
  override async start(env: Record<string, string> = {}, options: { dataDir?: string; port?: number } = {}): Promise<void> {
    this.server = await startServer(env, { ...options, address: SERVER_ADDRESS });
  }
}

const FULL = process.env.ADAPTIVE_E2E_FULL === '1';
const OPTED_IN = process.env.ADAPTIVE_E2E === '1' || FULL;
const bench = new NetBench();
let topology: ClientTopology;
let c3: Client;
let meeting: { id: string };
let publishers: Page[];
let erik: Page;
let fredrik: Page;
let tina: Page;
let open: Page; // c2, unshaped
let slow: Page; // c3, 500 kbit/s down

/**
 * The server namespace's end of c3's veth: what leaves through it is c3's downlink. The queue holds 300 ms (about
 * 19 KB at this rate), as a mobile link's buffer does at least; with 100 ms (6 KB) no key frame of a 1280-wide
 * screen share ever got through whole, so the share could never be received at any rate.
 */
const shape = () => execFileSync('tc', ['qdisc', 'add', 'dev', 'vmc3', 'root', 'tbf', 'rate', '500kbit', 'burst', '10kb', 'latency', '300ms']);
const unshape = () => execFileSync('tc', ['qdisc', 'del', 'dev', 'vmc3', 'root'], { stdio: 'ignore' });

interface Received {
  streamId: string;
  frameWidth: number;
  framesDecoded: number;
  videoBytes: number;
  audioLost: number;
  audioReceived: number;
  audioBytes: number;
  at: number;
}

/** Per received stream: decoded frames and their width, audio packets received and lost. */
const receivedOn = (page: Page): Promise<Received[]> =>
  page.evaluate(async () => {
    const hook = (window as unknown as { __videomoteTest: { session: { peerConnections(): { role: string; streamId: string; pc: RTCPeerConnection; mids?: string[] }[] } } }).__videomoteTest;
    const out: Received[] = [];
    for (const { role, streamId, pc, mids } of hook.session.peerConnections()) {
      if (role !== 'subscriber') continue;
      const s: Received = { streamId, frameWidth: 0, framesDecoded: 0, videoBytes: 0, audioLost: 0, audioReceived: 0, audioBytes: 0, at: performance.now() };
      (await pc.getStats()).forEach((r: Record<string, unknown>) => {
        if (r.type !== 'inbound-rtp' || (mids && !mids.includes(String(r.mid)))) return;
        if (r.kind === 'video') {
          s.frameWidth = Number(r.frameWidth ?? 0);
          s.framesDecoded += Number(r.framesDecoded ?? 0);
          s.videoBytes += Number(r.bytesReceived ?? 0);
        } else {
          s.audioLost += Math.max(0, Number(r.packetsLost ?? 0));
          s.audioReceived += Number(r.packetsReceived ?? 0);
          s.audioBytes += Number(r.bytesReceived ?? 0);
        }
      });
      out.push(s);
    }
    return out;
  });

interface Window {
  streamId: string;
  fps: number;
  frameWidth: number;
  videoKbps: number;
  audioKbps: number;
  audioLoss: number;
}

/** What each stream did over `ms`: frame rate, width, video bit rate, audio loss. */
async function over(page: Page, ms: number): Promise<Window[]> {
  const a = await receivedOn(page);
  await new Promise((r) => setTimeout(r, ms));
  const b = await receivedOn(page);
  return b.map((y) => {
    const x = a.find((s) => s.streamId === y.streamId) ?? { ...y, framesDecoded: 0, videoBytes: 0, audioLost: 0, audioReceived: 0, audioBytes: 0, at: y.at - ms };
    const seconds = (y.at - x.at) / 1000;
    const lost = y.audioLost - x.audioLost;
    const got = y.audioReceived - x.audioReceived;
    return {
      streamId: y.streamId,
      fps: Math.round(((y.framesDecoded - x.framesDecoded) / seconds) * 10) / 10,
      frameWidth: y.frameWidth,
      videoKbps: Math.round(((y.videoBytes - x.videoBytes) * 8) / seconds / 1000),
      audioKbps: Math.round(((y.audioBytes - x.audioBytes) * 8) / seconds / 1000),
      audioLoss: lost + got > 0 ? Math.round((lost / (lost + got)) * 1000) / 1000 : 0,
    };
  });
}

/** The publisher's top simulcast layer as it leaves the browser: width and kbit/s over `ms`. */
async function topLayer(page: Page, ms: number): Promise<{ frameWidth: number; kbps: number }> {
  const read = () =>
    page.evaluate(async () => {
      const hook = (window as unknown as { __videomoteTest: { session: { peerConnections(): { streamId: string; pc: RTCPeerConnection }[] } } }).__videomoteTest;
      const pc = hook.session.peerConnections().find((c) => c.streamId === 'own-camera')!.pc;
      let out = { frameWidth: 0, bytes: 0, at: performance.now() };
      (await pc.getStats()).forEach((r: Record<string, unknown>) => {
        if (r.type === 'outbound-rtp' && r.kind === 'video' && r.rid === 'h') out = { frameWidth: Number(r.frameWidth ?? 0), bytes: Number(r.bytesSent ?? 0), at: performance.now() };
      });
      return out;
    });
  const a = await read();
  await new Promise((r) => setTimeout(r, ms));
  const b = await read();
  return { frameWidth: b.frameWidth, kbps: Math.round(((b.bytes - a.bytes) * 8) / ((b.at - a.at) / 1000) / 1000) };
}

/** The page is a tab nobody looks at (as a phone's background tab): the layer choice pauses every received video. */
const hiddenTab = (p: Page) =>
  p.addInitScript(() => {
    Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
  });
/** A camera of 320x180 (one layer): the publishers whose video the test only needs lowered or off. */
const smallCamera = (p: Page) =>
  p.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = (constraints) =>
      original(constraints?.video ? { ...constraints, video: { ...(typeof constraints.video === 'object' ? constraints.video : {}), width: { exact: 320 }, height: { exact: 180 } } } : constraints);
  });
/** A camera held to 15 frames/s (the fake device gives 20; a capture constraint it cannot meet fails getUserMedia). */
const at15fps = (p: Page) =>
  p.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      for (const t of stream.getVideoTracks()) await t.applyConstraints({ ...t.getConstraints(), frameRate: { max: 15 } }).catch(() => undefined);
      return stream;
    };
  });
/** A viewer: no microphone, camera left off. */
const viewer = (p: Page) => withoutMicrophone(p);

beforeAll(async () => {
  if (!OPTED_IN) return;
  topology = await ClientTopology.create(3);
  const [c1, c2] = topology.clients as [Client, Client, Client];
  c3 = topology.clients[2]!;
  const seeded = await dataDirWithMeeting(
    [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'fredrik', role: 'PrivateContractor' },
      { role: 'SignLanguageInterpreter', displayName: INTERPRETER, pin: testPin(0) },
      ...(FULL ? [{ persona: 'karin' as const, role: 'ExternalParticipant' as const }, { role: 'Authority' as const, displayName: 'Maja Myndighet', pin: testPin(1) }] : []),
      { persona: 'jonna', role: 'JobSeeker' },
      { role: 'JobSeeker', displayName: 'Sara Svagnät', pin: testPin(2) },
    ],
    'Samtal med anpassad kvalitet',
  );
  meeting = seeded.meeting;
  await bench.start({ SCREEN_SHARE_FPS: '5' }, { dataDir: seeded.dataDir });
  // 960x540: Chromium sends three simulcast layers from that size up (960, 480, 240 wide); 20 frames/s.
  const clip = movingBarClip({ width: 960, height: 540, fps: 20, frames: 10 });
  const [b1, b2, b3] = (await Promise.all([
    c1.launch(bench.server.url, [`${FAKE}=fps=20`, `--use-file-for-fake-video-capture=${clip}`]),
    c2.launch(bench.server.url),
    c3.launch(bench.server.url),
  ])) as [Browser, Browser, Browser];
  bench.browser = b1;
  // One login at a time: seven at once on a loaded two-core machine ran past the IdP page's 30 s.
  const pages: Page[] = [];
  for (const login of [
    () => bench.person('erik', b1),
    () => bench.person('fredrik', b1),
    () => bench.personWithPin(testPin(0), INTERPRETER, b1),
    ...(FULL ? [() => bench.person('karin', b1), () => bench.personWithPin(testPin(1), 'Maja Myndighet', b1)] : []),
    () => bench.person('jonna', b2),
    () => bench.personWithPin(testPin(2), 'Sara Svagnät', b3),
  ]) {
    pages.push(await login());
  }
  publishers = pages.slice(0, -2);
  [erik, fredrik, tina] = publishers as [Page, Page, Page];
  [open, slow] = pages.slice(-2) as [Page, Page];
  for (const p of publishers) await hiddenTab(p);
  for (const p of [erik, ...publishers.slice(3)]) await smallCamera(p);
  // Karin and Maja only need their videos lowered or off: no microphone (three voices stay to be kept; their two
  // cost the shared cores 8 more audio streams to decrypt and play).
  for (const p of publishers.slice(3)) await withoutMicrophone(p);
  await at15fps(fredrik);
  for (const p of [open, slow]) {
    await viewer(p);
    await p.setViewportSize({ width: 1280, height: 720 });
  }
}, 300_000);

afterAll(async () => {
  if (!OPTED_IN) return;
  try {
    unshape();
  } catch {
    /* not shaped */
  }
  await bench.stop();
  await topology?.close();
});

describe.skipIf(!OPTED_IN)('adaptive quality', () => {
  it('keeps a 500 kbit/s viewer on the interpreter, the share and every voice, without lowering anyone else', async () => {
    for (const [i, p] of [...publishers, open, slow].entries()) {
      await enter(p, meeting.id).catch(async (err: Error) => {
        throw new Error(`page ${i} (${p.url()}) did not enter: ${err.message}; it shows ${(await p.locator('main, body').first().innerText().catch(() => '')).slice(0, 400)}`);
      });
    }
    for (const [i, p] of publishers.entries()) {
      // A plain DOM click: Playwright's own waited past 60 s for a busy page to settle after the camera had come on.
      await p
        .getByRole('button', { name: 'Slå på din kamera' })
        .evaluate((b: HTMLElement) => b.click(), undefined, { timeout: 60_000 })
        .catch(async (err: Error) => {
          const buttons = await p.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label') ?? b.textContent));
          throw new Error(`publisher ${i}: ${err.message}; buttons ${JSON.stringify(buttons)}; errors ${await p.locator('.error-panel').textContent().catch(() => '')}`);
        });
    }
    await erik.getByRole('button', { name: 'Dela skärm' }).click({ timeout: 30_000 });
    const [erikId, fredrikId, tinaId] = await Promise.all([connectionIdOf(erik), connectionIdOf(fredrik), connectionIdOf(tina)]);
    const focused = `camera-${fredrikId}`;
    const interpreter = `camera-${tinaId}`;
    const share = `screen-${erikId}`;
    for (const v of [open, slow]) {
      await keepsDecoding(v, share, 90_000);
      await keepsDecoding(v, interpreter, 90_000);
      await v.getByRole('button', { name: /^Maximera Fredrik/ }).click({ timeout: 30_000 });
    }
    // Over as long a window as the shaped one below: a 3 s window can hold a key frame and read twice the rate.
    const c1Top = await topLayer(fredrik, 15_000);
    console.log('Fredrik sends on top before shaping', c1Top);

    shape();
    const shapedAt = Date.now();
    // The slow viewer steps down (loss on its link) and settles; then the figures of 15 s, long enough to hold a probe
    // or two (each one rung up, each layer switch a key frame through the full queue).
    await new Promise((r) => setTimeout(r, 30_000));
    const [slowView, openView, fredrikTop, tinaTop] = await Promise.all([over(slow, 15_000), over(open, 15_000), topLayer(fredrik, 15_000), topLayer(tina, 15_000)]);
    const layers = await slow.evaluate(() => (window as unknown as { __videomoteTest: { model: { getState(): { videoLayers: unknown } }; session: { videoLayers: { cut: number } } } }).__videomoteTest.model.getState().videoLayers);
    console.log('shaped viewer (500 kbit/s), 30-45 s after shaping', JSON.stringify(slowView), 'layers', JSON.stringify(layers));
    console.log('unshaped viewer', JSON.stringify(openView));
    console.log('publishers top layer while shaped: Fredrik', fredrikTop, 'interpreter', tinaTop);

    const of = (view: Window[], id: string) => view.find((s) => s.streamId === id)!;
    // The unshaped viewer: the focused stream on the top layer.
    expect(of(openView, focused).frameWidth).toBeGreaterThanOrEqual(640);
    expect(of(openView, focused).fps).toBeGreaterThan(5);
    // The shaped viewer: the interpreter at 15 frames/s or more, the share decoding, every voice under 5 % loss.
    expect(of(slowView, interpreter).fps).toBeGreaterThanOrEqual(15);
    expect(of(slowView, share).fps).toBeGreaterThan(0);
    for (const s of slowView) if (s.streamId.startsWith('camera-')) expect(s.audioLoss, s.streamId).toBeLessThan(0.05);
    // ...and lower layers or no video for the others.
    for (const s of slowView) {
      if (s.streamId === interpreter || s.streamId === share) continue;
      expect(s.frameWidth < 960 || s.fps === 0, `${s.streamId} ${JSON.stringify(s)}`).toBe(true);
    }
    // The publishers' top layer is not lowered for the slow viewer.
    expect(fredrikTop.frameWidth).toBe(c1Top.frameWidth);
    expect(fredrikTop.kbps).toBeGreaterThan(c1Top.kbps * 0.5);

    unshape();
    const liftedAt = Date.now();
    await expect
      .poll(async () => (await receivedOn(slow)).find((s) => s.streamId === focused)?.frameWidth, { timeout: 30_000, interval: 250 })
      .toBeGreaterThanOrEqual(960);
    const back = Date.now() - liftedAt;
    console.log(`shaped for ${Math.round((liftedAt - shapedAt) / 1000)} s; focused stream back on the top layer ${back} ms after the shaping was lifted`);
    expect(back).toBeLessThanOrEqual(15_000);
  }, 420_000);
});
