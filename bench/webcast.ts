/**
 * A webcast of hundreds (issue 51): one synthetic presenter (VP8 simulcast h/m/l + Opus, sealed) and N synthetic
 * viewers admitted as a visitor is, through the public room link (`POST /api/publicaccess/{roomId}` with a name,
 * gettoken, the `/media` relay), each asking Janus for the lowest layer, against the real server and its embedded
 * Janus in a private network namespace. For each N of BENCH_VIEWERS (default 50,100,200,400), held BENCH_HOLD_SECONDS
 * (default 30) once everyone joined: viewers receiving, loss and freezes per viewer, join time, Janus's CPU per
 * viewer and per relayed packet, the app server's CPU and RSS, Janus's RSS, and whether the generator (this process)
 * kept its clock. Then the viewers leave and the next N joins afresh.
 *
 * Janus and the app are pinned to core 0 and this process to core 1 (taskset), so the generator's load does not land
 * on the figures it measures. Where the generator cannot carry an N, that N's figures are a PROJECTION from the cost
 * per relayed packet measured at the largest N it did carry.
 *
 * Visitors come through a trusted reverse proxy as in use: each with an address of its own in X-Forwarded-For (the
 * public access budget is 30 a minute per address; the server trusts a proxy on loopback by default).
 *
 *   npm run bench:webcast        BENCH_VIEWERS=20,50 BENCH_HOLD_SECONDS=15 npm run bench:webcast
 */
import { pin } from './cpu-pinning.ts';
import { insidePrivateNetns, runInPrivateNetns } from './private-netns.ts';

/** BENCH_BROWSER=0: no real Chromium viewer (then no web build is needed either). */
const WITH_BROWSER = process.env.BENCH_BROWSER !== '0';
if (!insidePrivateNetns()) {
  if (!WITH_BROWSER) process.env.WEB_DIST ??= 'unused';
  runInPrivateNetns(import.meta.url, process.argv.slice(2));
}

const { startServer } = await import('../e2e/support/server.ts');
const { seededDataDir, underWayNow } = await import('../e2e/support/seed.ts');
const { testPin } = await import('../e2e/support/fake-camera.ts');
const { SyntheticParticipant } = await import('@videomote/synthetic/participant');
const { joinAudience, leaveAudience } = await import('@videomote/synthetic/audience');
const { loadClips } = await import('@videomote/synthetic/clips');
const { Pacer } = await import('@videomote/synthetic/pacer');
const { launchBrowser, newUserPage } = await import('../e2e/support/browser.ts');
const { RECORD_PEER_CONNECTIONS } = await import('../e2e/support/peer-connections.ts');
const { decodingVideosAt, videoFramesByStream, keyFrameTotals } = await import('./page-video-probes.ts');
const { cpuSeconds, rssMb, percentile, median, machine, loadAverage, findJanus } = await import('./process-figures.ts');

type Viewer = Awaited<ReturnType<typeof joinAudience>>['members'][number]['viewer'];

const STEPS = (process.env.BENCH_VIEWERS ?? '50,100,200,400').split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
const HOLD_S = Number(process.env.BENCH_HOLD_SECONDS ?? 30);
/** Joins at a time: a burst as when a webcast's link is opened by many at its start, without queueing hundreds. */
const JOIN_CONCURRENCY = 8;
/** Above this share of its core the generator's own receive path would decide the figures. */
const GENERATOR_CPU_LIMIT = 85;

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

const presenterLogin = { pin: testPin(60), name: 'Presentatör Syntet' };
const { dataDir, seeded } = await seededDataDir((insert) =>
  insert({ title: 'Webbsändning för hundratals', type: 1, ...underWayNow(), participants: [{ pin: presenterLogin.pin, displayName: presenterLogin.name, role: 'EmploymentOfficer', isAdmin: true }] }),
);
const server = await startServer(
  {
    MEDIA_MAX_SOCKETS_PER_ADDRESS: '5000',
    MEDIA_MAX_HANDLES_PER_ADDRESS: '50000',
    MEDIA_MAX_PEER_CONNECTIONS_PER_ADDRESS: '50000',
    MEDIA_WEBCAST_PEER_CONNECTIONS: '5000',
  },
  { dataDir },
);
const serverPid = server.process.pid!;
// Janus may start after the server answers /healthz: pinned when found (a Janus started later inherits core 0).
let pinned = pin(serverPid, '0') && pin(process.pid, '1');
const clips = loadClips();
const pacer = new Pacer();

interface StepFigures {
  viewers: number;
  measured: boolean;
  receiving: number;
  /** The real Chromium visitor over the hold: frames decoded a second, freezes and packets lost (getStats). */
  browser: { fps: number; freezes: number; lost: number } | null;
  /** Receiving viewers whose last key frame had the lowest layer's width (what they asked for). */
  onLowestLayer: number;
  failedJoins: number;
  lossPercent: { median: number; p99: number };
  freezes: { median: number; p99: number };
  joinMs: { median: number; p95: number };
  packetsPerViewerPerSecond: number;
  janusCpuPercent: number;
  /** Janus with the presenter alone; per viewer and per packet are over this. */
  janusIdleCpuPercent: number;
  janusCpuPerViewer: number;
  janusUsPerRelayedPacket: number;
  janusRssMb: number;
  serverCpuPercent: number;
  serverCpuPerViewer: number;
  serverRssMb: number;
  serverRssPerViewerKb: number;
  generatorCpuPercent: number;
  generatorSaturated: boolean;
  pacer: ReturnType<typeof pacer.report>;
}

let lastGood: StepFigures | null = null;
/** The generator's CPU and Janus's RSS with the presenter alone: the per-viewer slopes are over these. */
let generatorIdleCpu = 0;
let janusIdleRss = 0;
const generatorNeeds = (f: StepFigures, n: number) => generatorIdleCpu + ((f.generatorCpuPercent - generatorIdleCpu) / f.viewers) * n;
const all: (StepFigures | { viewers: number; projection: Record<string, number>; reason: string })[] = [];

function printProjection(n: number, reason: string): void {
  if (!lastGood) {
    console.log(`${n} viewers: no PROJECTION (${reason}; no earlier unsaturated step to project from)`);
    all.push({ viewers: n, projection: {}, reason });
    return;
  }
  const pps = n * lastGood.packetsPerViewerPerSecond;
  const projection = {
    janusCpuPercent: round(lastGood.janusIdleCpuPercent + (pps * lastGood.janusUsPerRelayedPacket) / 1e4),
    relayedPacketsPerSecond: Math.round(pps),
    // Janus's RSS grew about linearly with viewers in the measured steps; the app's RSS did not (GC noise).
    janusRssMb: round(janusIdleRss + ((lastGood.janusRssMb - janusIdleRss) / lastGood.viewers) * n),
  };
  console.log(
    `PROJECTION ${n} viewers (${reason}): Janus ≈ ${projection.janusCpuPercent} % of a core for ${projection.relayedPacketsPerSecond} packets/s at ${lastGood.janusUsPerRelayedPacket} µs a relayed packet (measured at ${lastGood.viewers}); Janus RSS ≈ ${projection.janusRssMb} MB (linear)`,
  );
  console.log(`BENCH_JSON ${JSON.stringify({ bench: 'webcast', viewers: n, projection, from: lastGood.viewers, reason })}`);
  all.push({ viewers: n, projection, reason });
}

try {
  const presenter = await SyntheticParticipant.join({ base: server.url, meetingId: seeded.id, login: presenterLogin });
  const pub = await presenter.publish(clips, pacer);
  const janusPid = findJanus(serverPid);
  if (!janusPid) throw new Error('found no janus process under the server');
  pinned &&= pin(janusPid, '0');
  console.log(`webcast ${seeded.id}: presenter feed ${pub.feedId}; ${machine()}; load ${loadAverage()}; pinned ${pinned ? 'Janus+app core 0, generator core 1' : 'NO (taskset failed)'}`);
  await new Promise((r) => setTimeout(r, 2_000));
  // Janus with the presenter alone: the per-viewer and per-packet figures are on top of this.
  const idle0 = { janus: cpuSeconds(janusPid), generator: process.cpuUsage(), at: performance.now() };
  await new Promise((r) => setTimeout(r, 5_000));
  const idleSeconds = (performance.now() - idle0.at) / 1000;
  const janusIdleCpu = ((cpuSeconds(janusPid) - idle0.janus) / idleSeconds) * 100;
  const idleGen = process.cpuUsage(idle0.generator);
  generatorIdleCpu = ((idleGen.user + idleGen.system) / 1e6 / idleSeconds) * 100;
  janusIdleRss = rssMb(janusPid);
  console.log(`Janus with the presenter alone: ${round(janusIdleCpu)} % of a core`);

  // One real visitor in Chromium (on the generator's core: launched from this pinned process), through the public
  // page as a person joins, kept through every step: what a person sees while hundreds watch.
  const browser = WITH_BROWSER ? await launchBrowser() : null;
  let page: Awaited<ReturnType<typeof newUserPage>>['page'] | null = null;
  if (browser) {
    const user = await newUserPage(browser, server.url, { permissions: [] });
    await user.context.addInitScript(RECORD_PEER_CONNECTIONS);
    page = user.page;
    const t = performance.now();
    await page.goto(`/publicaccess/${seeded.roomId}`);
    await page.getByRole('textbox', { name: 'Ange namn' }).fill('Webbläsare');
    await page.getByRole('button', { name: 'Anslut till mötet' }).click();
    await page.waitForURL((url) => url.pathname === `/meetings/${seeded.id}/conference`);
    await page.evaluate(decodingVideosAt, 1);
    console.log(`Chromium visitor decoding the presenter ${Math.round(performance.now() - t)} ms after opening the public link`);
  }
  const browserFigures = async () => {
    if (!page) return null;
    const frames = Object.values(await page.evaluate(videoFramesByStream)).reduce((a, b) => a + b, 0);
    const k = await page.evaluate(keyFrameTotals);
    return { frames, freezes: k.freezes, lost: k.lost };
  };

  for (const [stepIndex, n] of STEPS.entries()) {
    // The generator's cost per viewer at the last step says whether this N can be carried at all.
    if (lastGood && generatorNeeds(lastGood, n) > GENERATOR_CPU_LIMIT) {
      printProjection(n, `generator saturated: ${round(generatorNeeds(lastGood, n))} % of its core needed`);
      continue;
    }
    const rssBefore = rssMb(serverPid);
    const t0 = performance.now();
    const audience = await joinAudience({
      base: server.url,
      meetingId: seeded.id,
      roomId: seeded.roomId,
      count: n,
      feed: pub.feedId,
      wanted: (feed) => [{ feed, substream: 0, temporal: 2 }],
      clips,
      address: (i) => `10.${stepIndex + 1}.${i >> 8}.${(i & 255) + 1}`,
      concurrency: JOIN_CONCURRENCY,
    });
    for (const e of audience.errors) console.error(`${e}`);
    const failedJoins = audience.failed;
    const joined = audience.members.map((m) => ({ p: m.participant, v: m.viewer, ms: m.joinMs }));
    const joinSeconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 3_000));

    const lowestWidth = clips.video.l.width;
    const onLowest = (v: Viewer) => Object.values(v.counts()).some((c) => c.kind === 'video' && c.width === lowestWidth);
    const totals = (v: Viewer) => Object.values(v.counts()).reduce((a, c) => ({ packets: a.packets + c.packets, lost: a.lost + c.lost, freezes: a.freezes + (c.kind === 'video' ? c.freezes : 0), video: a.video + (c.kind === 'video' ? c.packets : 0) }), { packets: 0, lost: 0, freezes: 0, video: 0 });
    const before = joined.map((j) => totals(j.v));
    const cpu0 = { janus: cpuSeconds(janusPid), server: cpuSeconds(serverPid), generator: process.cpuUsage(), at: performance.now() };
    const browser0 = await browserFigures();
    pacer.resetFigures();
    await new Promise((r) => setTimeout(r, HOLD_S * 1000));
    const browser1 = await browserFigures();
    const seconds = (performance.now() - cpu0.at) / 1000;
    const janusCpu = ((cpuSeconds(janusPid) - cpu0.janus) / seconds) * 100;
    const serverCpu = ((cpuSeconds(serverPid) - cpu0.server) / seconds) * 100;
    const gen = process.cpuUsage(cpu0.generator);
    const generatorCpu = ((gen.user + gen.system) / 1e6 / seconds) * 100;
    const report = pacer.report();
    const after = joined.map((j) => totals(j.v));
    const deltas = after.map((a, i) => ({ packets: a.packets - before[i]!.packets, lost: a.lost - before[i]!.lost, freezes: a.freezes - before[i]!.freezes, video: a.video - before[i]!.video }));
    const relayed = deltas.reduce((s, d) => s + d.packets, 0);
    const loss = deltas.map((d) => (d.packets + d.lost ? (100 * d.lost) / (d.packets + d.lost) : 100));
    const freezes = deltas.map((d) => d.freezes);
    const joinMs = joined.map((j) => j.ms);
    const serverRss = rssMb(serverPid);
    const f: StepFigures = {
      viewers: n,
      measured: true,
      receiving: deltas.filter((d) => d.video > 0).length,
      browser: browser0 && browser1 ? { fps: round((browser1.frames - browser0.frames) / seconds), freezes: browser1.freezes - browser0.freezes, lost: browser1.lost - browser0.lost } : null,
      onLowestLayer: joined.filter((j, i) => deltas[i]!.video > 0 && onLowest(j.v)).length,
      failedJoins,
      lossPercent: { median: round(median(loss), 2), p99: round(percentile(loss, 0.99), 2) },
      freezes: { median: median(freezes), p99: percentile(freezes, 0.99) },
      joinMs: { median: Math.round(median(joinMs)), p95: Math.round(percentile(joinMs, 0.95)) },
      packetsPerViewerPerSecond: round(relayed / Math.max(1, joined.length) / seconds),
      janusCpuPercent: round(janusCpu),
      janusIdleCpuPercent: round(janusIdleCpu),
      janusCpuPerViewer: round((janusCpu - janusIdleCpu) / n, 3),
      janusUsPerRelayedPacket: round((((janusCpu - janusIdleCpu) / 100) * seconds * 1e6) / Math.max(1, relayed), 2),
      janusRssMb: round(rssMb(janusPid)),
      serverCpuPercent: round(serverCpu),
      serverCpuPerViewer: round(serverCpu / n, 3),
      serverRssMb: round(serverRss),
      serverRssPerViewerKb: round(((serverRss - rssBefore) * 1024) / Math.max(1, joined.length)),
      generatorCpuPercent: round(generatorCpu),
      generatorSaturated: report.saturated || generatorCpu > GENERATOR_CPU_LIMIT,
      pacer: report,
    };
    console.log(
      `${n} viewers${f.generatorSaturated ? ' [GENERATOR SATURATED: figures are the generator’s]' : ''}: ${f.receiving}/${n} receiving (${f.onLowestLayer} on the lowest layer, ${failedJoins} failed joins), ` +
        `loss median ${f.lossPercent.median} % p99 ${f.lossPercent.p99} %, freezes median ${f.freezes.median} p99 ${f.freezes.p99} in ${HOLD_S} s, ` +
        `join median ${f.joinMs.median} ms p95 ${f.joinMs.p95} ms (all in ${joinSeconds.toFixed(0)} s), ` +
        `Janus ${f.janusCpuPercent} % of a core (${f.janusIdleCpuPercent} % with the presenter alone; ${f.janusCpuPerViewer} %/viewer, ${f.janusUsPerRelayedPacket} µs/relayed packet, ${f.packetsPerViewerPerSecond} packets/s a viewer), Janus RSS ${f.janusRssMb} MB, ` +
        `app ${f.serverCpuPercent} % (${f.serverCpuPerViewer} %/viewer) RSS ${f.serverRssMb} MB (+${f.serverRssPerViewerKb} KB/viewer), Chromium visitor ${f.browser ? `${f.browser.fps} frames/s, ${f.browser.freezes} freezes, ${f.browser.lost} lost` : 'none'}, generator ${f.generatorCpuPercent} % of its core, pacer p99 late ${report.lateMs.p99} ms stalls ${report.stalls}; load ${loadAverage()}`,
    );
    console.log(`BENCH_JSON ${JSON.stringify({ bench: 'webcast', holdSeconds: HOLD_S, ...f })}`);

    // Ramp down: everyone leaves before the next N joins afresh.
    leaveAudience(audience);
    await new Promise((r) => setTimeout(r, 5_000));
    all.push(f);
    if (f.generatorSaturated) printProjection(n, 'generator saturated at this step');
    else lastGood = f;
  }
  await browser?.close();
  pub.close();
  presenter.close();
} finally {
  pacer.stop();
  await server.stop();
}
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'webcast-summary', machine: machine(), load: loadAverage(), pinned, holdSeconds: HOLD_S, steps: all })}`);
process.exit(0);
