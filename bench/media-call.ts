/**
 * Joining a running eight-person call (issue 49): seven SYNTHETIC publishers (@videomote/synthetic: pre-encoded VP8
 * simulcast h/m/l with temporal layers, two with Opus, no encoding) and one real Chromium page that joins, again and
 * again, each figure beside the same measurement against bare Janus in the same run: what the product's page, relay
 * and encryption cost a person who joins over janus.js alone. Method and latest figures: docs/benchmarks.md.
 *
 *   npm run bench:media:call          # BENCH_JOINS=20 BENCH_CUTS=5 (the defaults); BENCH_JOINS=5 BENCH_CUTS=2 for a quick run
 *
 * Before issue 49 all eight were Chromium pages, and on two cores what the bench measured was Chromium fighting
 * itself (docs/benchmark-history.md). Now exactly one browser runs: the joiner's, in a network namespace of its own
 * (e2e/support/client-netns.ts) so that its link alone can be cut. The bench starts Janus itself (the product's
 * JanusSupervisor and configuration) and the real server pointed at it with JANUS_URL, so both phases use the very
 * same Janus process and the same generator.
 *
 * Product phase: the seven publishers join as people do (IdP login, the lobby's consent, gettoken, the `/media` relay
 * with its checks, the meeting key; every frame sealed by frame-crypto.ts in a `require_e2ee` room); the joiner logs
 * in and joins from the lobby (timed from the click on 'Anslut till mötet') and by opening the meeting page (timed
 * from the navigation) until all seven remote videos decode (bench/page-video-probes.ts). Bare phase: seven synthetic
 * publishers straight to Janus's WebSocket (@videomote/synthetic/bare-janus: a bench baseline, frames in clear) in a
 * room with the product's settings except `require_e2ee`, and bench/bare-janus-client.ts as the joiner's page (a
 * kernel DNAT to Janus's loopback port, no process in between), asking Janus for the layer the product's joiner chose.
 * Then the joiner's link is cut both ways for 5 s (iptables DROP in its namespace) BENCH_CUTS times: seconds from the
 * restore until all seven decode new frames again. Every phase says whether the generator kept its clock (its
 * pacer's report) and the load average; a join or cut during which the generator stalled (a run 250 ms late) is left
 * out of the figures and named. The generator runs in a process of its own (bench/synthetic-publishers.ts)
 * at nice -10, Janus, the app and Chromium at 0: its publishers stand for other people's machines, which a join does
 * not slow down.
 *
 * `BENCH_LADDER=1` prints the last join of each phase step by step; `BENCH_PROFILE=1` samples its main thread;
 * `BENCH_TRACE=<prefix>` writes a Chromium trace of the last join from the lobby (every thread: what decodes, what renders).
 *
 * Needs root, Debian's janus, chromium and iptables. Builds the web app to a temporary folder first.
 */
import crypto from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FixtureParticipant } from '../apps/server/src/testing/fixtures.ts';
import type { Client } from '../e2e/support/client-netns.ts';
import { SATURATED_LATE_MS, type PacerReport } from '@videomote/synthetic/pacer';
import { insidePrivateNetns, runInPrivateNetns, WEB_DIST } from './private-netns.ts';
import { prioritise } from './cpu-pinning.ts';
import { meanThreadMs, rendererCpu, rendererCpuBetween, type RendererCpu } from './browser-threads.ts';
import { cpuSeconds, loadAverage, machine, median, percentile } from './process-figures.ts';
import { profileMainThread } from './cpu-profile.ts';
import { decodingVideosAt, firstVideoDecodedAt, joinLadder, layerState, receivedLayers, joinTimeline, RECORD_JOIN_TIMELINE, streamsGrown, videoFramesByStream, videoRecoveryCounters, type JoinTimeline } from './page-video-probes.ts';

if (!insidePrivateNetns()) runInPrivateNetns(import.meta.url, process.argv.slice(2));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JOINS = Number(process.env.BENCH_JOINS) || 20;
const CUTS = Number(process.env.BENCH_CUTS) || 5;
const CUT_MS = 5_000;
/** A join opening the page slower than this prints its steps. */
const SLOW_JOIN_MS = 8_000;
const PUBLISHERS = 7;
const WITH_MICROPHONE = 2;
/** Targets of issue 49 on this machine. */
const TARGET = { joinP95Ms: 1_500, joinRatio: 1.5, recoveryS: 2 };

const { ClientTopology, SERVER_ADDRESS } = await import('../e2e/support/client-netns.ts');
const { newUserPage } = await import('../e2e/support/browser.ts');
const { RECORD_PEER_CONNECTIONS } = await import('../e2e/support/peer-connections.ts');
const { movingBarClip, testPin } = await import('../e2e/support/fake-camera.ts');
const { dataDirWithMeeting, postgresWithMeeting } = await import('../e2e/support/seed.ts');
const { startServer } = await import('../e2e/support/server.ts');
const { loginAs, loginWithPin } = await import('../e2e/support/login.ts');
const { withoutMicrophone } = await import('../e2e/support/call.ts');
const { giveConsent } = await import('./page-consent.ts');
const { JanusSupervisor } = await import('../apps/server/src/modules/media/janus/janus-supervisor.ts');
const { JanusControl } = await import('../apps/server/src/modules/media/janus/janus-control.ts');
const { signJanusToken } = await import('../apps/server/src/modules/media/janus/janus-token.ts');
const { DEFAULT_RTP_PORT_RANGE, ROOM_PUBLISHERS } = await import('../apps/server/src/platform/media-capacity.ts');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '—');

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`${what}: nothing within ${ms} ms`)))]);
}

const runStarted = new Date();
const loadAtStart = loadAverage();
const cleanups: (() => Promise<unknown> | unknown)[] = [];
async function cleanUp(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve().then(c).catch(() => {});
}
// Bounded: a run that hangs is stopped (and cleaned up) rather than left holding a browser on a shared machine.
// `BENCH_GUARD_MIN` for a machine slow enough that a whole run takes longer.
const GUARD_MIN = Number(process.env.BENCH_GUARD_MIN) || 20;
const guard = setTimeout(() => {
  console.error(`media call bench: over ${GUARD_MIN} minutes, stopped`);
  void cleanUp().finally(() => process.exit(2));
}, GUARD_MIN * 60_000);

// ── The network: the joiner's client namespace on a bridge holding 198.18.0.1 (the synthetics run in this one) ──
const topology = await ClientTopology.create(1);
cleanups.push(() => topology.close());
const [joinerClient] = topology.clients as [Client];

// ── Janus, started by the bench with the product's configuration, and the server pointed at it ──
const secrets = { tokenSecret: crypto.randomBytes(24).toString('base64url'), roomAdminKey: crypto.randomBytes(24).toString('base64url') };
const supervisor = new JanusSupervisor({
  dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-bench-janus-')),
  iceEnforce: SERVER_ADDRESS,
  rtpPortRange: DEFAULT_RTP_PORT_RANGE,
  secrets,
  log: { info: () => {}, warn: (_o, m) => console.warn(`janus: ${m}`), error: (_o, m) => console.error(`janus: ${m}`) },
});
const janus = await supervisor.ensureStarted();
cleanups.push(() => supervisor.stop());
const janusPid = supervisor.pid!;

interface Person {
  seat: FixtureParticipant;
  login: { persona: 'erik' | 'karin' | 'fredrik' | 'anna' | 'jonna' } | { pin: string; name: string };
}
const person = (persona: 'erik' | 'karin' | 'fredrik' | 'anna' | 'jonna', role: FixtureParticipant['role'], isAdmin = false): Person => ({ seat: { persona, role, isAdmin }, login: { persona } });
const byPin = (n: number, name: string, role: FixtureParticipant['role']): Person => ({ seat: { pin: testPin(n), displayName: name, role }, login: { pin: testPin(n), name } });
const PEOPLE: Person[] = [
  person('erik', 'EmploymentOfficer', true),
  person('karin', 'ExternalParticipant'),
  person('fredrik', 'PrivateContractor'),
  person('anna', 'EmploymentOfficer'),
  byPin(0, 'Maja Myndighet', 'Authority'),
  byPin(1, 'Olle Ombud', 'Interpreter'),
  byPin(2, 'Pia Partner', 'Authority'),
  person('jonna', 'JobSeeker'), // the one who joins, again and again
];
// The embedded database (npm start's), or with BENCH_DATABASE_URL PostgreSQL as in production (from inside the
// bench's network namespace through its Unix socket: postgres://postgres@/test?host=/var/run/postgresql).
const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
const seeded = databaseUrl
  ? await postgresWithMeeting(databaseUrl, PEOPLE.map((p) => p.seat), 'Mätning: samtal med åtta')
  : { ...(await dataDirWithMeeting(PEOPLE.map((p) => p.seat), 'Mätning: samtal med åtta')), env: {}, drop: async () => {} };
cleanups.push(() => seeded.drop());
const server = await startServer(
  { JANUS_URL: janus.url, JANUS_TOKEN_SECRET: secrets.tokenSecret, JANUS_ADMIN_KEY: secrets.roomAdminKey, ...seeded.env },
  { dataDir: seeded.dataDir, address: SERVER_ADDRESS },
);
cleanups.push(() => server.stop());
const serverPid = server.process.pid!;

// ── The bare client's page and janus.js, served from 198.18.0.1 (scripts cached, as the product's) ──
const pageScript = (file: string) => ts.transpileModule(fs.readFileSync(path.join(root, file), 'utf8'), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 } }).outputText;
const bareFiles: Record<string, { type: string; body: string; cache: boolean }> = {
  '/bare/': { type: 'text/html', cache: false, body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bare Janus</title><script type="module" src="client.js"></script></head><body></body></html>' },
  '/bare/client.js': { type: 'text/javascript', cache: true, body: pageScript('bench/bare-janus-client.ts') },
  '/bare/opus-dtx.js': { type: 'text/javascript', cache: true, body: pageScript('apps/web/src/features/conference/model/opus-dtx.ts') },
  '/bare/janus.es.js': { type: 'text/javascript', cache: true, body: fs.readFileSync(path.join(root, 'node_modules/janus-gateway/npm/dist/janus.es.js'), 'utf8') },
};
const bareServer = http.createServer((req, res) => {
  const file = bareFiles[new URL(req.url ?? '/', 'http://x').pathname];
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': `${file.type}; charset=utf-8`, 'cache-control': file.cache ? 'max-age=3600' : 'no-cache' }).end(file.body);
});
// Port 0 on its own address: a port freePort finds free on 127.0.0.1 can be a live connection's on this one (EADDRINUSE).
await new Promise<void>((resolve) => bareServer.listen(0, SERVER_ADDRESS, resolve));
const barePort = (bareServer.address() as AddressInfo).port;
cleanups.push(() => new Promise((r) => bareServer.close(r)));
const bareOrigin = `http://${SERVER_ADDRESS}:${barePort}`;

// Janus's WebSocket listens on loopback only (as the product configures it). The bare page reaches it through a
// DNAT in this namespace's kernel: no process of ours in the path. The bare synthetic publishers, in this namespace,
// connect to it on loopback.
const janusWsPort = Number(new URL(janus.url).port);
for (const dev of ['all', 'vmbr0']) fs.writeFileSync(`/proc/sys/net/ipv4/conf/${dev}/route_localnet`, '1');
execFileSync('iptables-legacy', ['-t', 'nat', '-A', 'PREROUTING', '-d', SERVER_ADDRESS, '-p', 'tcp', '--dport', String(janusWsPort), '-j', 'DNAT', '--to-destination', `127.0.0.1:${janusWsPort}`]);
const bareWs = `ws://${SERVER_ADDRESS}:${janusWsPort}`;

// ── The generator: the seven synthetic publishers of a phase, in a process of their own (synthetic-publishers.ts) ──
interface Generator {
  /** The pacer's figures and the CPU count start afresh. */
  reset(): void;
  /** The pacer's report and the generator's CPU (% of a core) since the reset. */
  report(): Promise<{ pacer: PacerReport; cpu: number }>;
  close(): void;
}
/** Runs the synthetic publishers (bench/synthetic-publishers.ts) until `close`, at nice -10 once they publish. */
async function startGenerator(config: Record<string, unknown>): Promise<Generator> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/synthetic-publishers.ts'), JSON.stringify(config)], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill('SIGKILL'));
  const answers: ((line: string) => void)[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'ready') resolve();
      else if (line.startsWith('{')) answers.shift()?.(line);
      else console.log(`generator: ${line}`);
    });
    child.once('exit', (code) => reject(new Error(`the synthetic publishers' process ended (${code})`)));
  });
  await within(ready, 120_000, 'the synthetic publishers publishing');
  // Its publishers stand for other people's machines, which a join does not slow down: before the joiner's Chromium.
  if (!prioritise(child.pid!)) console.log('generator: NOT prioritised (setpriority refused)');
  return {
    reset: () => void child.stdin!.write('reset\n'),
    report: () =>
      within(
        new Promise((resolve) => {
          answers.push((line) => resolve(JSON.parse(line) as { pacer: PacerReport; cpu: number }));
          child.stdin!.write('report\n');
        }),
        10_000,
        "the generator's report",
      ),
    close: () => {
      child.stdin!.write('stop\n');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    },
  };
}

// ── The joiner's browser (a small fake camera: the product's page and the bare one publish it turned off) ──
const clip = movingBarClip({ width: 192, height: 108, fps: 10 });
const camera = ['--use-fake-device-for-media-stream=fps=10', `--use-file-for-fake-video-capture=${clip}`];
const origins = `${server.url},${bareOrigin}`;
const joinerBrowser: Browser = await joinerClient.launch(origins, camera);

async function openPage(browser: Browser, opened: BrowserContext[]): Promise<Page> {
  const { context, page } = await newUserPage(browser, server.url);
  opened.push(context);
  await context.addInitScript(RECORD_PEER_CONNECTIONS);
  await context.addInitScript(RECORD_JOIN_TIMELINE);
  await withoutMicrophone(page);
  return page;
}

interface Join {
  /** ms from the navigation to the meeting page to all seven remote videos decoding. */
  fromNavigation: number;
  /** ms from the navigation to the first of them decoding. */
  firstFromNavigation: number;
  /** ms from the page's media session (product: after gettoken; bare: janus.js initialised) to the same. */
  fromSession: number;
  timeline: JoinTimeline;
  /** CPU the joiner's renderer spent from the navigation until all seven decode. */
  cpu: JoinCpu;
}
/** ms of CPU a join cost the joiner's renderer: its main thread, and all its threads (workers, WebRTC, compositor). */
type JoinCpu = { mainMs: number; allMs: number; threadMs: Record<string, number> };
interface PhaseFigures {
  joins: Join[];
  /** ms from the join on an open page (the lobby's button) to all seven remote videos decoding, and to the first. */
  openPageJoins: number[];
  openPageFirst: number[];
  /** Each lobby join's steps, ms since its click. */
  openPageSteps: string[];
  /** CPU each lobby join cost the joiner's renderer, from the click until all seven decode. */
  openPageCpu: JoinCpu[];
  failedJoins: string[];
  /**
   * Measured windows (a join from its click or navigation until all seven decode, a cut until all decode again) in
   * which the generator stalled: not counted, for a stalled publisher looks like a slow join. Stalls between the
   * windows (a page loading, the lobby's checks) touch no figure.
   */
  stalledWindows: string[];
  /** Seconds from the restore of a 5 s cut until the joiner decodes new frames of all seven. */
  recoveries: number[];
  failedRecoveries: string[];
  /** The layers the joiner received at the end (substream per video, or why off): product only. */
  layers: string | null;
  /** The generator over the phase's joins and cuts: its pacer, and its process's CPU (% of a core). */
  generator: { pacer: PacerReport; cpu: number; saturated: boolean };
  /** Janus's and the server's CPU over the phase's joins (% of a core). */
  janusCpu: number;
  serverCpu: number;
  load: { joins: string; cuts: string };
}

/** What differs between the product and the bare client: the publishers' way in, and the joiner's page. */
interface Phase {
  name: string;
  /** The seven synthetic publishers, sending. */
  startPublishers(): Promise<Generator>;
  /** A fresh page of the joiner, not yet navigated. */
  joinerPage(opened: BrowserContext[]): Promise<Page>;
  joinUrl: string;
  /**
   * The join from a page already open and settled (the product's lobby, the bare page loaded): readies `page`, then
   * calls `beforeJoin`, starts the join and answers performance.now() at that moment (the product: the click on
   * 'Anslut till mötet').
   */
  joinFromOpenPage(page: Page, beforeJoin: () => Promise<void>): Promise<number>;
  /** performance.now() at the page's media session start. */
  sessionStart(page: Page): Promise<number>;
  /** What the page says went wrong, for a failure message. */
  diagnose(page: Page): Promise<string>;
}

/** Above this share of a core the generator process itself is busy enough to decide the figures (as bench/webcast.ts). */
const GENERATOR_CPU_LIMIT = 85;

async function runPhase(phase: Phase): Promise<PhaseFigures> {
  const opened: BrowserContext[] = [];
  const started = Date.now();
  const generator = await phase.startPublishers();
  try {
    console.log(`${phase.name}: seven synthetic publishers sending after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await sleep(2_000);
    generator.reset();

    const joins: Join[] = [];
    const joinsStarted = { at: performance.now(), server: cpuSeconds(serverPid), janus: cpuSeconds(janusPid) };
    const failedJoins: string[] = [];
    const stalledWindows: string[] = [];
    const stallsNow = async () => (await generator.report()).pacer.stalls;
    let joiner: Page | null = null;
    const joinerOpened: BrowserContext[] = [];
    // Joins from a page already open (a person in the lobby who presses 'Anslut till mötet'); the first warms up.
    const openPageJoins: number[] = [];
    const openPageFirst: number[] = [];
    const openPageSteps: string[] = [];
    const openPageCpu: JoinCpu[] = [];
    for (let j = 0; j <= JOINS; j++) {
      const page = await phase.joinerPage(joinerOpened);
      try {
        const profile = j === JOINS && process.env.BENCH_PROFILE === '1' ? await profileMainThread(page) : null;
        let cpuBefore: RendererCpu = new Map();
        const tracing = j === JOINS && !!process.env.BENCH_TRACE;
        let stallsBefore = 0;
        const startedAt = await phase.joinFromOpenPage(page, async () => {
          stallsBefore = await stallsNow();
          if (tracing) await joinerBrowser.startTracing(page, { categories: ['toplevel', 'toplevel.flow', 'media', 'webrtc', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'gpu', 'viz'] });
          cpuBefore = await rendererCpu(joinerBrowser);
        });
        const at = await within(page.evaluate(decodingVideosAt, PUBLISHERS), 30_000, 'all seven remote videos decoding (from an open page)');
        const cpu = rendererCpuBetween(cpuBefore, await rendererCpu(joinerBrowser));
        if (tracing) fs.writeFileSync(`${process.env.BENCH_TRACE}-${phase.name.replace(/\W/g, '')}.json`, await joinerBrowser.stopTracing());
        if (profile) console.log(`${phase.name}: the last join from an open page, its main thread from the lobby's start until all decode,\n${(await profile.stop(WEB_DIST)).join('\n')}`);
        const stalled = (await stallsNow()) - stallsBefore;
        if (j > 0 && stalled > 0) stalledWindows.push(`lobby join ${j} (${stalled})`);
        else if (j > 0) {
          openPageJoins.push(at - startedAt);
          openPageCpu.push(cpu);
          const first = (await page.evaluate(firstVideoDecodedAt)) - startedAt;
          openPageFirst.push(first);
          const t = await page.evaluate(joinTimeline, startedAt);
          const since = (x: number) => f0(x - startedAt);
          openPageSteps.push(`socket made ${since(t.socketMade)}, open ${since(t.socketOpen)}, receiving connection ${since(t.receiverCreated)}, connected ${since(t.receiverConnected)}, first decoding ${f0(first)}, all ${f0(at - startedAt)}`);
        }
        if (j === JOINS && process.env.BENCH_LADDER === '1') console.log(`${phase.name}: the last join from an open page (started at ${startedAt.toFixed(0)}), ms since navigation:\n${(await page.evaluate(joinLadder)).join('\n')}`);
      } catch (err) {
        failedJoins.push(`from an open page: ${(err as Error).message}; ${await phase.diagnose(page).catch(() => '')}`);
      }
      await page.close();
      await sleep(1_500);
    }
    console.log(`${phase.name}: ${openPageJoins.length} joins from an open page timed, median ${median(openPageJoins).toFixed(0)} ms`);
    const stallsAfterLobby = (await generator.report()).pacer.stalls;
    for (let j = 0; j <= JOINS; j++) {
      const page = await phase.joinerPage(joinerOpened);
      try {
        const profile = j === JOINS && process.env.BENCH_PROFILE === '1' ? await profileMainThread(page) : null;
        const stallsBefore = await stallsNow();
        const cpuBefore = await rendererCpu(joinerBrowser);
        // Watched from the navigation's commit, not its load event: the product page's load event came after its
        // first videos had decoded, and a probe started only then timed the load event, not the media.
        await page.goto(phase.joinUrl, { timeout: 60_000, waitUntil: 'commit' });
        const at = await within(page.evaluate(decodingVideosAt, PUBLISHERS), 30_000, 'all seven remote videos decoding');
        const cpu = rendererCpuBetween(cpuBefore, await rendererCpu(joinerBrowser));
        if (profile) console.log(`${phase.name}: the last join's main thread until all decode,\n${(await profile.stop(WEB_DIST)).join('\n')}`);
        const stalled = (await stallsNow()) - stallsBefore;
        // Join 0 warms caches and JIT and is not counted.
        if (j > 0 && stalled > 0) stalledWindows.push(`join ${j} opening the page (${stalled})`);
        else if (j > 0) joins.push({ fromNavigation: at, firstFromNavigation: await page.evaluate(firstVideoDecodedAt), fromSession: at - (await phase.sessionStart(page)), timeline: await page.evaluate(joinTimeline, 0), cpu });
        // A join far slower than the rest explains itself: its steps, and what the page says of its connections.
        if (at > SLOW_JOIN_MS) console.log(`${phase.name}: join ${j} took ${at.toFixed(0)} ms; ${await phase.diagnose(page).catch((e: Error) => e.message)}; ms since navigation:\n${(await page.evaluate(joinLadder)).join('\n')}`);
        else if (j === JOINS && process.env.BENCH_LADDER === '1') console.log(`${phase.name}: the last join, ms since navigation:\n${(await page.evaluate(joinLadder)).join('\n')}`);
      } catch (err) {
        failedJoins.push(`${(err as Error).message}; ${await phase.diagnose(page).catch(() => '')}`);
      }
      if (j < JOINS) {
        await page.close();
        await sleep(1_500); // Janus frees the leaver's connections
      } else joiner = page;
    }
    opened.push(...joinerOpened);
    const joinSeconds = (performance.now() - joinsStarted.at) / 1000;
    const janusCpu = ((cpuSeconds(janusPid) - joinsStarted.janus) / joinSeconds) * 100;
    const serverCpu = ((cpuSeconds(serverPid) - joinsStarted.server) / joinSeconds) * 100;
    const loadAfterJoins = loadAverage();
    const stallsAfterJoins = (await generator.report()).pacer.stalls;
    console.log(`${phase.name}: ${joins.length} joins timed, median ${median(joins.map((x) => x.fromNavigation)).toFixed(0)} ms; over the ${2 * (JOINS + 1)} joins (${joinSeconds.toFixed(0)} s): server ${serverCpu.toFixed(1)} %, Janus ${janusCpu.toFixed(1)} % of a core`);
    if (!joiner) throw new Error('no joiner');
    await sleep(3_000);
    const layers = await joiner.evaluate(receivedLayers);
    if (layers !== null) console.log(`${phase.name}: layers the joiner receives (substream, or off): ${layers}`);

    const recoveries: number[] = [];
    const failedRecoveries: string[] = [];
    for (let k = 0; k < CUTS; k++) {
      await sleep(3_000);
      const cutAt = await joiner.evaluate(() => performance.now());
      const stallsBefore = await stallsNow();
      joinerClient.cut();
      await sleep(CUT_MS);
      const [before, countersBefore] = await Promise.all([joiner.evaluate(videoFramesByStream), joiner.evaluate(videoRecoveryCounters)]);
      joinerClient.restore();
      const t0 = performance.now();
      let back = NaN;
      // For a slow recovery: when each of the joiner's streams decoded again, and its layer choice as it changed.
      const streamBackAt = new Map<string, number>();
      const layerSteps: string[] = [];
      let lastLayers: string | null = null;
      while (performance.now() - t0 < 30_000 && Number.isNaN(back)) {
        const [frames, layerNow] = await Promise.all([joiner.evaluate(videoFramesByStream), joiner.evaluate(layerState)]);
        const now = performance.now() - t0;
        for (const [id, n] of Object.entries(frames)) if (n > (before[id] ?? 0) && !streamBackAt.has(id)) streamBackAt.set(id, now);
        if (layerNow !== null && layerNow !== lastLayers) layerSteps.push(`${f0(now)} ms ${(lastLayers = layerNow)}`);
        if (streamsGrown(before, frames) >= PUBLISHERS) back = now;
        await sleep(50);
      }
      if (Number.isNaN(back)) failedRecoveries.push(`cut ${k + 1}: not all seven decoding within 30 s of the restore; ${await phase.diagnose(joiner)}`);
      else if ((await stallsNow()) > stallsBefore) stalledWindows.push(`cut ${k + 1}`);
      else recoveries.push(back / 1000);
      // A recovery over the target explains itself: each stream, and the joiner's steps since the cut.
      if (!(back <= TARGET.recoveryS * 1000)) {
        const steps = (await joiner.evaluate(joinLadder)).filter((line) => Number(line.trim().split(/\s+/)[0]) >= cutAt);
        const countersAfter = await joiner.evaluate(videoRecoveryCounters);
        const perStream = Object.entries(countersAfter).map(([id, c]) => {
          const b = countersBefore[id] ?? { frames: 0, keyFrames: 0, asked: 0, lost: 0, nacks: 0 };
          return `  ${id}: decoding again at ${streamBackAt.has(id) ? `${f0(streamBackAt.get(id)!)} ms` : 'never'}; since the restore ${c.keyFrames - b.keyFrames} key frames decoded, ${c.asked - b.asked} asked for, ${c.lost - b.lost} packets lost, ${c.nacks - b.nacks} NACKs`;
        });
        console.log(`${phase.name}: cut ${k + 1} took ${f0(back)} ms; the joiner's streams (ms after the restore):\n${perStream.join('\n')}\n  its layer choice as it changed:\n${layerSteps.map((l) => `  ${l}`).join('\n') || '  (bare page)'}`);
        if (process.env.BENCH_LADDER === '1') console.log(`${phase.name}: cut ${k + 1}, the joiner's steps since the cut (ms since its navigation):\n${steps.slice(-150).join('\n')}`);
      }
    }
    console.log(`${phase.name}: ${recoveries.length} of ${CUTS} recoveries timed: ${recoveries.map((s) => s.toFixed(2)).join(' ')} s`);
    const { pacer: report, cpu: generatorCpu } = await generator.report();
    // Saturated: late throughout (its 99th percentile), or busy. Its stalls are accounted per window above.
    const generatorFigures = { pacer: report, cpu: generatorCpu, saturated: report.lateMs.p99 > SATURATED_LATE_MS || generatorCpu > GENERATOR_CPU_LIMIT };
    console.log(
      `${phase.name}: generator ${generatorCpu.toFixed(1)} % of a core, pacer late p50 ${report.lateMs.p50} p99 ${report.lateMs.p99} max ${report.lateMs.max} ms, event-loop delay p99 ${report.loopDelayMs.p99} max ${report.loopDelayMs.max} ms, ` +
        `stalls ${report.stalls} (${stallsAfterLobby} in the joins from the lobby, ${stallsAfterJoins - stallsAfterLobby} in those opening the page, ${report.stalls - stallsAfterJoins} in the cuts; inside measured windows, which are not counted: ${stalledWindows.join(', ') || 'none'}): ${generatorFigures.saturated ? 'SATURATED' : 'not saturated'}`,
    );
    return { joins, openPageJoins, openPageFirst, openPageSteps, openPageCpu, failedJoins, stalledWindows, recoveries, failedRecoveries, layers, generator: generatorFigures, janusCpu, serverCpu, load: { joins: loadAfterJoins, cuts: loadAverage() } };
  } finally {
    for (const c of opened) await c.close().catch(() => {});
    generator.close();
    await sleep(3_000); // Janus tears the call down before the next phase
  }
}

// ── Product: the real meeting screen ──
const meetingUrl = `${server.url}/meetings/${seeded.meeting.id}/conference?vmtest=1`;
const lobbyUrl = `${server.url}/meetings/${seeded.meeting.id}/lobby?vmtest=1`;
async function loggedIn(browser: Browser, who: Person, opened: BrowserContext[]): Promise<Page> {
  const page = await openPage(browser, opened);
  if ('persona' in who.login) await loginAs(page, who.login.persona);
  else await loginWithPin(page, who.login.pin, who.login.name);
  const consent = await giveConsent(page, seeded.meeting.id);
  if (consent !== 200) throw new Error(`consent refused (${consent})`);
  return page;
}
let joinerContext: BrowserContext | null = null;
const product: Phase = {
  name: 'product',
  startPublishers: () =>
    // Through the product's path, as people come in: login, consent, gettoken, `/media`, the meeting key.
    startGenerator({ product: { base: server.url, meetingId: seeded.meeting.id, logins: PEOPLE.slice(0, PUBLISHERS).map((p) => p.login) }, audio: WITH_MICROPHONE }),
  async joinerPage(opened) {
    if (!joinerContext) {
      const first = await loggedIn(joinerBrowser, PEOPLE[PUBLISHERS]!, opened);
      joinerContext = first.context();
      return first;
    }
    const page = await joinerContext.newPage();
    await withoutMicrophone(page);
    return page;
  },
  joinUrl: meetingUrl,
  async joinFromOpenPage(page, beforeJoin) {
    await page.goto(lobbyUrl, { timeout: 60_000 });
    // Settled as a person who reads the lobby is: its connection check done, the meeting screen's code fetched in
    // the background (app/router.tsx), the consent box ticked.
    await page.locator('.lobby-connection[data-check-result="direct"]').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/assets\/conference-page-[^/]+\.js$/.test(e.name)), undefined, { timeout: 30_000 });
    const consent = page.getByRole('checkbox', { name: 'Jag intygar att jag förstår hanteringen av personuppgifter' });
    if (!(await consent.isChecked())) await consent.check();
    await sleep(1_000);
    await beforeJoin();
    return page.evaluate(() => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Anslut till mötet');
      if (!button) throw new Error("no 'Anslut till mötet' button in the lobby");
      const at = performance.now();
      button.click();
      return at;
    });
  },
  sessionStart: (page) => page.evaluate(() => (window as unknown as { __videomoteTest?: { startedAt: number } }).__videomoteTest?.startedAt ?? NaN),
  diagnose: async (page) => `at ${page.url()}: ${(await page.locator('body').innerText({ timeout: 2_000 })).slice(0, 300).replace(/\s+/g, ' ')}; ${await page.evaluate(callSays).catch((e: Error) => e.message)}`,
};

/**
 * What a product page's call knows, for a failure message: the connections announced to it (feeds), what its
 * subscriber asked for, has and rests, and how many frames each received stream decoded.
 */
const callSays = async (): Promise<string> => {
  const hook = (window as unknown as { __videomoteTest?: { session: Record<string, unknown>; model: { getState(): { connectionId: string | null; connections: { connectionId: string; feedId: number | null }[]; media: Record<string, unknown> } } } }).__videomoteTest;
  if (!hook) return 'no call hook';
  const state = hook.model.getState();
  const remote = hook.session.remote as Record<string, unknown> | null;
  // No named inner functions: tsx would wrap them in a helper the page does not have.
  const lists: Record<string, string> = {};
  for (const key of ['wanted', 'asked', 'resting', 'mids']) {
    const m = remote?.[key];
    lists[key] = m instanceof Map ? [...m.entries()].map(([k, v]) => `${String(k)}:${JSON.stringify(v)}`).join(' ') : String(m);
  }
  const decoded: string[] = [];
  const pc = (remote as { pc?: RTCPeerConnection } | null)?.pc;
  if (pc) (await pc.getStats()).forEach((s: { type: string; kind?: string; mid?: string; framesDecoded?: number }) => s.type === 'inbound-rtp' && s.kind === 'video' && decoded.push(`${s.mid}:${s.framesDecoded}`));
  return [
    `me ${state.connectionId}, announced ${state.connections.map((c) => `${c.connectionId.slice(0, 6)}=${c.feedId}`).join(' ')}`,
    `media ${Object.keys(state.media).length}`,
    remote ? `wanted ${lists.wanted}; asked ${lists.asked}; resting ${lists.resting}; mids ${lists.mids}; joined ${String(remote.joined)} busy ${String(remote.busy)}` : 'no subscriber',
    `pc ${pc ? `${pc.connectionState}/${pc.iceConnectionState}` : 'none'}, decoded ${decoded.join(' ')}`,
  ].join('; ');
};

// ── Bare Janus: janus.js straight to the same Janus, a room without end-to-end encryption ──
const bareRoom = 1_000_000 + crypto.randomInt(1_000_000);
const control = new JanusControl({ id: 'bench', url: janus.url, tokenSecret: secrets.tokenSecret, roomAdminKey: secrets.roomAdminKey });
cleanups.push(() => control.close());
const bareUrl = (name: string, extra: Record<string, string>) =>
  `${bareOrigin}/bare/?${new URLSearchParams({ ws: bareWs, token: signJanusToken(secrets.tokenSecret, Date.now() / 1000 + 3600), room: String(bareRoom), name, ...extra })}`;
/** The layer the bare joiner asks Janus for: the one the product's joiner chose most (set after the product phase). */
let bareLayer: Record<string, string> = {};
const bareSays = (page: Page) => page.evaluate(() => (window as unknown as { __bare?: { error: string } }).__bare?.error || 'no error reported');
const bare: Phase = {
  name: 'bare Janus',
  startPublishers: () =>
    // A bench baseline: straight to Janus's WebSocket with its signed token, frames in clear, no login or relay.
    startGenerator({ bare: { janusUrl: janus.url, token: signJanusToken(secrets.tokenSecret, Date.now() / 1000 + 3600), roomId: bareRoom, count: PUBLISHERS }, audio: WITH_MICROPHONE }),
  async joinerPage(opened) {
    return openPage(joinerBrowser, opened);
  },
  get joinUrl() {
    return bareUrl('joiner', { audio: '0', camera: 'off', simulcast: '1', ...bareLayer });
  },
  async joinFromOpenPage(page, beforeJoin) {
    await page.goto(bareUrl('joiner', { audio: '0', camera: 'off', simulcast: '1', start: 'click', ...bareLayer }), { timeout: 60_000 });
    await page.waitForFunction(() => typeof (window as unknown as { __bare?: { join?: () => void } }).__bare?.join === 'function', undefined, { timeout: 30_000 });
    await sleep(1_000);
    await beforeJoin();
    return page.evaluate(() => {
      const at = performance.now();
      (window as unknown as { __bare: { join: () => void } }).__bare.join();
      return at;
    });
  },
  sessionStart: (page) => page.evaluate(() => (window as unknown as { __bare?: { startedAt: number } }).__bare?.startedAt ?? NaN),
  diagnose: bareSays,
};

/** The substream the product's joiner received most ('1,1,0,…' → '1'), for the bare joiner to ask for the same. */
function mostCommonLayer(layers: string | null): string | null {
  const counts = new Map<string, number>();
  for (const l of (layers ?? '').split(',')) if (/^[012]$/.test(l)) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

let productFigures: PhaseFigures;
let bareFigures: PhaseFigures;
try {
  productFigures = await runPhase(product);
  const layer = mostCommonLayer(productFigures.layers);
  if (layer !== null) bareLayer = { substream: layer };
  console.log(`bare Janus: the joiner asks for substream ${layer ?? '(Janus default, the top)'}, as the product's joiner received most`);
  await control.createRoom(bareRoom, crypto.randomBytes(12).toString('base64url'), { publishers: ROOM_PUBLISHERS, description: 'bare Janus baseline', requireE2ee: false });
  bareFigures = await runPhase(bare);
} catch (err) {
  console.error(`media call bench failed: ${(err as Error).stack}\nserver: ${server.output().slice(-2000)}\njanus: ${supervisor.output().split('\n').slice(-20).join('\n')}`);
  await cleanUp();
  clearTimeout(guard);
  process.exit(1);
}

// ── Figures ──
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '—');
const ratio = (a: number, b: number) => (Number.isFinite(a / b) && b > 0 ? a / b : NaN);
const summary = (f: PhaseFigures) => {
  const nav = f.joins.map((j) => j.fromNavigation);
  const ses = f.joins.map((j) => j.fromSession);
  return {
    joinMedian: median(nav),
    joinP95: percentile(nav, 0.95),
    firstMedian: median(f.joins.map((j) => j.firstFromNavigation)),
    openPageJoinMedian: median(f.openPageJoins),
    openPageJoinP95: percentile(f.openPageJoins, 0.95),
    openPageFirstMedian: median(f.openPageFirst),
    sessionMedian: median(ses),
    sessionP95: percentile(ses, 0.95),
    recoveryMedian: median(f.recoveries),
    recoveryMax: f.recoveries.length ? Math.max(...f.recoveries) : NaN,
    joinMainCpuMedian: median(f.joins.map((j) => j.cpu.mainMs)),
    joinRendererCpuMedian: median(f.joins.map((j) => j.cpu.allMs)),
    openPageMainCpuMedian: median(f.openPageCpu.map((c) => c.mainMs)),
    openPageRendererCpuMedian: median(f.openPageCpu.map((c) => c.allMs)),
  };
};
const p = summary(productFigures);
const b = summary(bareFigures);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const ms = (n: number) => `${f0(n)} ms`;
type Row = [string, string, string, string, string, string];
const beside = (what: string, pv: number, bv: number, show: (n: number) => string, target = '', result = ''): Row => [what, show(pv), show(bv), `${f2(ratio(pv, bv))}×`, target, result];
const rows: Row[] = [
  ['figure', 'product', 'bare Janus', 'ratio', 'target', 'result'],
  beside(`opening the meeting page → all 7 remote videos decoding, median (${productFigures.joins.length} / ${bareFigures.joins.length} joins)`, p.joinMedian, b.joinMedian, ms, `≤ ${TARGET.joinRatio}× bare`, verdict(ratio(p.joinMedian, b.joinMedian) <= TARGET.joinRatio)),
  beside('opening the meeting page, p95', p.joinP95, b.joinP95, ms, `≤ ${TARGET.joinP95Ms} ms`, verdict(p.joinP95 <= TARGET.joinP95Ms)),
  beside('  … → the first remote video decoding, median', p.firstMedian, b.firstMedian, ms),
  beside(`from the lobby's button (bare: an open page) → all 7 decoding, median (${productFigures.openPageJoins.length} / ${bareFigures.openPageJoins.length} joins)`, p.openPageJoinMedian, b.openPageJoinMedian, ms, `≤ ${TARGET.joinRatio}× bare`, verdict(ratio(p.openPageJoinMedian, b.openPageJoinMedian) <= TARGET.joinRatio)),
  beside('from the lobby, p95', p.openPageJoinP95, b.openPageJoinP95, ms, `≤ ${TARGET.joinP95Ms} ms`, verdict(p.openPageJoinP95 <= TARGET.joinP95Ms)),
  beside('  … → the first remote video decoding, median', p.openPageFirstMedian, b.openPageFirstMedian, ms),
  beside('  opening the page, from the media session start, median', p.sessionMedian, b.sessionMedian, ms),
  beside('  the joiner\'s main thread, CPU per join opening the page, median', p.joinMainCpuMedian, b.joinMainCpuMedian, ms),
  beside('  the joiner\'s renderer (all threads), the same', p.joinRendererCpuMedian, b.joinRendererCpuMedian, ms),
  beside('  the joiner\'s renderer, CPU per join from the lobby, median', p.openPageRendererCpuMedian, b.openPageRendererCpuMedian, ms),
  beside(`5 s link cut of the joiner → all 7 decoding again after the restore, median (${productFigures.recoveries.length} / ${bareFigures.recoveries.length} cuts)`, p.recoveryMedian, b.recoveryMedian, (n) => `${f2(n)} s`, `≤ ${TARGET.recoveryS} s`, verdict(p.recoveryMedian <= TARGET.recoveryS)),
  beside('  worst of the cuts', p.recoveryMax, b.recoveryMax, (n) => `${f2(n)} s`),
  beside('Janus CPU over the joins (% of a core)', productFigures.janusCpu, bareFigures.janusCpu, (n) => `${n.toFixed(1)} %`),
  ['the app server\'s CPU over the joins', `${productFigures.serverCpu.toFixed(1)} %`, `${bareFigures.serverCpu.toFixed(1)} % (idle)`, '', '', ''],
];
const gen = (f: PhaseFigures) => `${f.generator.cpu.toFixed(0)} % of a core, pacer p99 ${f.generator.pacer.lateMs.p99} ms, max ${f.generator.pacer.lateMs.max} ms, ${f.generator.pacer.stalls} stalls (${f.stalledWindows.length} windows not counted): ${f.generator.saturated ? 'SATURATED' : 'not saturated'}`;
rows.push(['the generator over the phase (its own process)', gen(productFigures), gen(bareFigures), '', '', '']);
rows.push(['load average after the joins / after the cuts', `${productFigures.load.joins} / ${productFigures.load.cuts}`, `${bareFigures.load.joins} / ${bareFigures.load.cuts}`, '', '', '']);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
console.log(`\nJoining an eight-person call of synthetic publishers, ${runStarted.toISOString()} (bench ran ${((Date.now() - runStarted.getTime()) / 1000).toFixed(0)} s)`);
console.log(`machine: ${machine()}; load average at start ${loadAtStart}, at end ${loadAverage()}; the generator in a process of its own at nice -10 (Janus, the app and Chromium at 0)`);
console.log(
  `7 synthetic publishers (VP8 simulcast l/m/h 320x180/640x360/1280x720 at 30 fps, 3 temporal layers; 2 with Opus): product through login, consent, gettoken, /media and the meeting key, every frame sealed; bare straight to Janus, in clear. 1 real Chromium joiner in a network namespace of its own${productFigures.layers ? `; it received layers ${productFigures.layers}, the bare joiner asked for ${bareLayer.substream ?? 'the default'}` : ''}; the server on ${databaseUrl ? 'PostgreSQL' : 'the embedded database (PGlite)'}`,
);
for (const r of rows) console.log(`| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`);
const saturated = productFigures.generator.saturated || bareFigures.generator.saturated;
if (saturated) console.log('THE GENERATOR WAS SATURATED in this run (above): its figures are the generator\'s, not the product\'s.');
for (const [name, f] of [['product', productFigures], ['bare Janus', bareFigures]] as const) {
  console.log(`${name}: joins from navigation ${f.joins.map((j) => f0(j.fromNavigation)).join(' ')} ms; from an open page ${f.openPageJoins.map(f0).join(' ')} ms; recoveries ${f.recoveries.map(f2).join(' ')} s`);
  f.openPageSteps.forEach((line, i) => console.log(`${name}: lobby join ${i + 1}, ms since the click: ${line}`));
  console.log(`${name}: the joiner's renderer, CPU ms per join by thread (mean): from an open page ${meanThreadMs(f.openPageCpu)}; by opening the page ${meanThreadMs(f.joins.map((j) => j.cpu))}`);
  const stage = (k: keyof JoinTimeline) => f0(median(f.joins.map((j) => j.timeline[k])));
  console.log(
    `${name}, median ms since navigation: page arrived ${stage('pageArrived')}, gettoken asked ${stage('tokenAsked')}, its first byte ${stage('tokenFirstByte')}, answered ${stage('tokenAnswered')}, app bundle loaded ${stage('appScript')}, janus.js loaded ${stage('janusScript')}, media session ${f0(median(f.joins.map((j) => j.fromNavigation - j.fromSession)))}, socket open ${stage('socketOpen')}, receiving connection made ${stage('receiverCreated')}, ` +
      `Janus's offer on it ${stage('receiverOffer')}, connected ${stage('receiverConnected')}, all 7 decoding ${f0(median(f.joins.map((j) => j.fromNavigation)))}`,
  );
  for (const e of [...f.failedJoins, ...f.failedRecoveries]) console.log(`${name}: FAILED ${e}`);
}
// One machine-readable line for `npm run bench` (bench/run-all.ts).
const side = (s: ReturnType<typeof summary>, f: PhaseFigures) => ({ ...s, janusCpu: f.janusCpu, failed: f.failedJoins.length + f.failedRecoveries.length, generator: f.generator, load: f.load });
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'media-call', figures: { product: side(p, productFigures), bare: side(b, bareFigures), saturated, target: TARGET } })}`);

clearTimeout(guard);
await cleanUp();
process.exit(0);
