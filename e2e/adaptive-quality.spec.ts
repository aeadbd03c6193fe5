import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { loadClips } from '@videomote/synthetic/clips';
import { Pacer } from '@videomote/synthetic/pacer';
import { SyntheticParticipant, type Publisher } from '@videomote/synthetic/participant';
import { SyntheticViewer } from '@videomote/synthetic/viewer';
import type { StreamCounts } from '@videomote/synthetic/stream-counter';
import { CallBench, enter, keepsDecoding, withoutMicrophone } from './support/call.ts';
import { ClientTopology, SERVER_ADDRESS, type Client } from './support/client-netns.ts';
import { testPin } from './support/fake-camera.ts';
import { dataDirWithMeeting } from './support/seed.ts';
import { startServer } from './support/server.ts';
import type { LayerLogEntry } from '../apps/web/src/features/conference/media/video-layer-control.ts';

// Adaptive quality on a real-shaped network (support/client-netns.ts). Five synthetic publishers (packages/synthetic:
// each joins as a person does and sends pre-encoded VP8 simulcast h/m/l with three temporal layers, sealed with the
// meeting key): Erik (a camera and a screen share), Fredrik (the stream the viewers focus), the booked sign-language
// interpreter, Karin and Maja (cameras only, no microphone: three voices). One real Chromium viewer on c1 whose
// downlink is held to 500 kbit/s by `tc tbf` on its veth, and one unshaped synthetic viewer. Everything the real page
// receives is measured from getStats on it; the synthetic viewer counts frames per layer from the clear VP8 headers.
//
// Before the generator the five publishers were five Chromium pages: on this 2-core machine they sent 1-9 frames/s
// (encoding, encryption and audio playout of seven pages kept both cores busy before any shaping), so the spec was
// opt-in and passed only some of its runs (its history is in git: e2e/adaptive-quality.spec.ts before issue 49). The
// synthetic publishers cost a few per cent of a core, and send at their clips' full rate whatever the machine does;
// a run in which the generator itself fell behind says so (its pacer report is printed and named in failures).
// It was opt-in until it passed ten runs in a row here (2 December 2026, docs/benchmarks.md); it runs with the rest.
vi.setConfig({ expect: { poll: { timeout: 60_000, interval: 500 } } });

const INTERPRETER = 'Tina Tolk';

class NetBench extends CallBench {
  override async start(env: Record<string, string> = {}, options: { dataDir?: string; port?: number } = {}): Promise<void> {
    this.server = await startServer(env, { ...options, address: SERVER_ADDRESS });
  }
}

const bench = new NetBench();
const pacer = new Pacer();
const clips = loadClips();
const joined: SyntheticParticipant[] = [];
let topology: ClientTopology;
let meeting: { id: string };
let slow: Page; // c1, 500 kbit/s down
/** For the controller's log printed after the test, passed or failed: the streams by name, when shaped and lifted. */
const trace: { names: Record<string, string>; shapedAt: number; liftedAt: number | null } = { names: {}, shapedAt: 0, liftedAt: null };

/**
 * The server namespace's end of c1's veth: what leaves through it is c1's downlink. The queue holds 300 ms (about
 * 19 KB at this rate), as a mobile link's buffer does at least; with 100 ms (6 KB) no key frame of a 1280-wide
 * screen share ever got through whole, so the share could never be received at any rate.
 */
const shape = () => execFileSync('tc', ['qdisc', 'add', 'dev', 'vmc1', 'root', 'tbf', 'rate', '500kbit', 'burst', '10kb', 'latency', '300ms']);
/**
 * The shaping lifted as a link that grows does: the same queue, drained at 100 Mbit/s. Deleting the qdisc dropped
 * the packets in its queue, which the page read as loss in the very seconds it should find the room.
 */
const lift = () => execFileSync('tc', ['qdisc', 'change', 'dev', 'vmc1', 'root', 'tbf', 'rate', '100mbit', 'burst', '1mb', 'latency', '300ms']);
const unshape = () => execFileSync('tc', ['qdisc', 'del', 'dev', 'vmc1', 'root'], { stdio: 'ignore' });

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

/**
 * The page's layer controller, one line a second from `since` (VideoLayerControl's log): the loss and bit rate it
 * read, the cut it chose (of the most it could take), the ceiling, the stable period, the speaker, and the layers of
 * the streams named. What a slow or flapping recovery is made of.
 */
async function controllerLog(page: Page, since: number, zero: number, names: Record<string, string>): Promise<string[]> {
  const log = await page.evaluate(() => (window as unknown as { __videomoteTest: { session: { videoLayers: { log: LayerLogEntry[] } } } }).__videomoteTest.session.videoLayers.log);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return log
    .filter((e) => e.at >= since)
    .map((e) => {
      const s = e.sample;
      const queue = typeof s?.queueGrowthMs === 'number' ? ` q ${Math.round(s.queueGrowthMs)} ms` : '';
      const read = s ? `v ${pct(s.videoLoss)} a ${pct(s.audioLoss)} ${Math.round(s.receivedBitrate / 1000)} kbit/s${queue}` : 'no sample';
      // Per stream: the layer wanted, what the page believes Janus holds, and the video kbit/s that arrived.
      const layers = Object.entries(names)
        .map(([label, id]) => `${label} ${e.plans[id] ?? '-'}|${e.signalling.holds[id] ?? '-'}|${e.videoKbps[id] ?? '-'}`)
        .join(' ');
      const g = e.signalling;
      const failing = g.failingMs ? ` failing ${g.failingMs} ms (${g.lastFailure?.reason ?? '?'})` : '';
      const sig = `unanswered ${g.unanswered}${g.unanswered ? ` oldest ${g.oldestUnansweredMs} ms` : ''}${g.busy ? ' busy' : ''}${g.pausedMs ? ` paused ${g.pausedMs}` : ''}${failing}`;
      const speaker = Object.entries(names).find(([, id]) => id === e.speaker)?.[0] ?? (e.speaker ? '?' : '-');
      return `${((e.at - zero) / 1000).toFixed(1).padStart(6)} s  ${read.padEnd(32)} cut ${e.cut}/${e.limit} ceiling ${e.ceiling === null ? '-' : Math.round(e.ceiling / 1000)} stable ${e.stableMs} speaker ${speaker} ${sig}  ${layers}`;
    });
}

/** What the synthetic viewer's video of one feed did over `ms`: frames per second on each simulcast layer, losses. */
async function syntheticOver(viewer: SyntheticViewer, feed: number, ms: number): Promise<{ fpsPerLayer: Record<string, number>; lost: number; packets: number; freezes: number }> {
  const video = (): StreamCounts => structuredClone([...viewer.streams.values()].find((s) => s.feed === feed && s.kind === 'video')!.counter.counts);
  const a = video();
  await new Promise((r) => setTimeout(r, ms));
  const b = video();
  const fpsPerLayer = Object.fromEntries(Object.entries(b.framesPerLayer).map(([layer, n]) => [layer, Math.round(((n - (a.framesPerLayer[layer] ?? 0)) / (ms / 1000)) * 10) / 10]));
  return { fpsPerLayer, lost: b.lost - a.lost, packets: b.packets - a.packets, freezes: b.freezes - a.freezes };
}

beforeAll(async () => {
  topology = await ClientTopology.create(1);
  const c1 = topology.clients[0] as Client;
  const seeded = await dataDirWithMeeting(
    [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'fredrik', role: 'PrivateContractor' },
      { role: 'SignLanguageInterpreter', displayName: INTERPRETER, pin: testPin(0) },
      { persona: 'karin', role: 'ExternalParticipant' },
      { role: 'Authority', displayName: 'Maja Myndighet', pin: testPin(1) },
      { persona: 'jonna', role: 'JobSeeker' },
      { role: 'JobSeeker', displayName: 'Sara Svagnät', pin: testPin(2) },
    ],
    'Samtal med anpassad kvalitet',
  );
  meeting = seeded.meeting;
  await bench.start({ SCREEN_SHARE_FPS: '5' }, { dataDir: seeded.dataDir });
  bench.browser = await c1.launch(bench.server.url);
  slow = await bench.personWithPin(testPin(2), 'Sara Svagnät');
  // A viewer: no microphone, camera left off.
  await withoutMicrophone(slow);
  await slow.setViewportSize({ width: 1280, height: 720 });
}, 300_000);

afterAll(async () => {
  if (trace.shapedAt > 0) {
    const zero = trace.liftedAt ?? trace.shapedAt;
    const lines = await controllerLog(slow, trace.shapedAt, zero, trace.names).catch((e: unknown) => [String(e)]);
    // Page clock (Date.now) and this process's are the same machine's.
    console.log(`the page's layer controller from the shaping on (seconds after the ${trace.liftedAt ? 'lift' : 'shaping'})\n${lines.join('\n')}`);
  }
  try {
    unshape();
  } catch {
    /* not shaped */
  }
  for (const p of joined) p.close();
  pacer.stop();
  await bench.stop();
  await topology?.close();
});

// The recovery is measured as frames decoding at 1280 wide: a video's frameWidth keeps its last frame's width while
// it is off, so reading it alone passed at once whether or not the stream came back.
describe('adaptive quality', () => {
  it('keeps a 500 kbit/s viewer on the interpreter, the share and every voice, without lowering anyone else', async () => {
    const base = bench.server.url;
    const join = async (login: { persona: string } | { pin: string; name: string }) => {
      const p = await SyntheticParticipant.join({ base, meetingId: meeting.id, login });
      joined.push(p);
      return p;
    };
    const [erik, fredrik, tina, karin, maja] = [
      await join({ persona: 'erik' }),
      await join({ persona: 'fredrik' }),
      await join({ pin: testPin(0), name: INTERPRETER }),
      await join({ persona: 'karin' }),
      await join({ pin: testPin(1), name: 'Maja Myndighet' }),
    ] as [SyntheticParticipant, SyntheticParticipant, SyntheticParticipant, SyntheticParticipant, SyntheticParticipant];
    const camera: Publisher[] = [];
    for (const [p, audio] of [
      [erik, true],
      [fredrik, true],
      [tina, true],
      [karin, false],
      [maja, false],
    ] as const) {
      camera.push(await p.publish(clips, pacer, { audio }));
    }
    const share = await erik.publish(clips, pacer, { screen: true });
    const [, fredrikCam, tinaCam] = camera as [Publisher, Publisher, Publisher];

    await enter(slow, meeting.id);
    const open = await SyntheticViewer.subscribe(
      await join({ persona: 'jonna' }),
      [{ feed: fredrikCam.feedId, substream: 2, temporal: 2 }, { feed: tinaCam.feedId }, { feed: share.feedId }],
      clips,
    );

    const focused = `camera-${fredrik.connectionId}`;
    const interpreter = `camera-${tina.connectionId}`;
    const screen = `screen-${erik.connectionId}`;
    await keepsDecoding(slow, screen, 90_000);
    await keepsDecoding(slow, interpreter, 90_000);
    await slow.getByRole('button', { name: /^Maximera Fredrik/ }).click({ timeout: 30_000 });
    const before = await syntheticOver(open, fredrikCam.feedId, 5_000);
    console.log('unshaped synthetic viewer, Fredrik before shaping', before);

    trace.names = { erik: `camera-${erik.connectionId}`, fredrik: focused, tina: interpreter, karin: `camera-${karin.connectionId}`, maja: `camera-${maja.connectionId}`, share: screen };
    shape();
    const shapedAt = Date.now();
    trace.shapedAt = shapedAt;
    // The generator's own figures from here on: the joins and the page's start are not what is measured.
    pacer.resetFigures();
    // The slow viewer steps down (loss on its link) and settles; then the figures of 15 s, long enough to hold a probe
    // or two (each one rung up, each layer switch a key frame through the full queue).
    await new Promise((r) => setTimeout(r, 30_000));
    const [slowView, openView] = await Promise.all([over(slow, 15_000), syntheticOver(open, fredrikCam.feedId, 15_000)]);
    const layers = await slow.evaluate(() => (window as unknown as { __videomoteTest: { model: { getState(): { videoLayers: unknown } } } }).__videomoteTest.model.getState().videoLayers);
    const generator = pacer.report();
    console.log('shaped viewer (500 kbit/s), 30-45 s after shaping', JSON.stringify(slowView), 'layers', JSON.stringify(layers));
    console.log('unshaped synthetic viewer, Fredrik', JSON.stringify(openView));
    console.log('generator', JSON.stringify({ pacer: generator, sent: camera.map((c) => c.framesSent()), share: share.framesSent(), keyRequests: camera.map((c) => c.stats.keyRequests) }));
    // A generator that fell behind sends a stream that looks like a network's fault: say so beside any failure.
    const note = generator.saturated ? ` (the generator itself was saturated: ${JSON.stringify(generator)})` : '';

    const of = (view: Window[], id: string) => view.find((s) => s.streamId === id)!;
    // The unshaped viewer: the focused stream on the top layer at its full rate, nothing lost.
    expect(openView.fpsPerLayer.h ?? 0, `unshaped viewer${note}`).toBeGreaterThan(20);
    expect(openView.lost, `unshaped viewer${note}`).toBeLessThanOrEqual(openView.packets * 0.02);
    // The shaped viewer: the interpreter at 15 frames/s or more while the share is received too, every voice under
    // 2 % loss.
    expect(of(slowView, interpreter).fps, `interpreter${note}`).toBeGreaterThanOrEqual(15);
    expect(of(slowView, screen).fps, `share${note}`).toBeGreaterThan(0);
    for (const s of slowView) if ([`camera-${erik.connectionId}`, focused, interpreter].includes(s.streamId)) expect(s.audioLoss, `${s.streamId}${note}`).toBeLessThan(0.02);
    // ...and lower layers or no video for the others.
    for (const s of slowView) {
      if (s.streamId === interpreter || s.streamId === screen) continue;
      expect(s.frameWidth < 1280 || s.fps === 0, `${s.streamId} ${JSON.stringify(s)}${note}`).toBe(true);
    }

    lift();
    const liftedAt = Date.now();
    trace.liftedAt = liftedAt;
    // Back on top: frames decoding at the top layer's width (the width alone stays at the last frame's while off).
    let last = -1;
    // The focused stream's layer as the page's controller wants it, at each change: where the recovery's time goes.
    const steps: string[] = [];
    const layerNow = () =>
      slow.evaluate((id) => JSON.stringify((window as unknown as { __videomoteTest: { model: { getState(): { videoLayers: Record<string, unknown> } } } }).__videomoteTest.model.getState().videoLayers[id]), focused);
    await expect
      .poll(
        async () => {
          const layer = await layerNow();
          if (steps.at(-1)?.endsWith(layer) !== true) steps.push(`${Date.now() - liftedAt} ms ${layer}`);
          const now = (await receivedOn(slow)).find((s) => s.streamId === focused);
          const decoding = last >= 0 && (now?.framesDecoded ?? 0) > last;
          last = now?.framesDecoded ?? 0;
          return decoding && (now?.frameWidth ?? 0) >= 1280;
        },
        // Longer than the 15 s asked for, so that a slow recovery is measured rather than only failed.
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true)
      .finally(() => console.log('focused stream after the lift', steps));
    const back = Date.now() - liftedAt;
    console.log(`shaped for ${Math.round((liftedAt - shapedAt) / 1000)} s; focused stream back on the top layer ${back} ms after the shaping was lifted`);
    expect(back, `back on top${note}`).toBeLessThanOrEqual(15_000);
  }, 420_000);
});
