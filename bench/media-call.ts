/**
 * Media in an eight-person call, each figure beside the same measurement against bare Janus in the same run: what the
 * product's page, relay and encryption cost over janus.js alone. Method and latest figures: docs/benchmarks.md.
 *
 *   npm run bench:media:call          # or BENCH_JOINS=10 BENCH_CUTS=3 (the defaults)
 *
 * Topology (as e2e/media-reach.spec.ts): every client browser in a network namespace of its own joined by a veth pair
 * (e2e/support/client-netns.ts): seven publishers' pages in two Chromiums (c1, c2), the joining page in a third (c3),
 * so its link alone can be cut. The bench starts Janus itself (the product's JanusSupervisor and configuration) and
 * the real server pointed at it with JANUS_URL, so both phases use the very same Janus process. Product phase: login,
 * consent, the meeting screen (gettoken, the `/media` relay, end-to-end encryption). Bare phase: bench/bare-janus-client.ts
 * straight to Janus's WebSocket (a kernel DNAT, no process in between) in a room made with the product's settings
 * except `require_e2ee`. Each phase times joins (from the navigation, and from the lobby's click) until all seven remote
 * videos decode, Janus's CPU per forwarded stream over a steady 30 s, each join's renderer CPU, and the recovery from
 * 5 s link cuts (iptables DROP in the joiner's namespace).
 *
 * `BENCH_LADDER=1` prints the last join of each phase step by step; `BENCH_PROFILE=1` samples its main thread.
 * `BENCH_E2EE=0` runs the product's pages without encoded transforms (what the encryption costs a join);
 * `BENCH_E2EE=transforms` keeps the transforms but passes frames through untouched (the machinery without the crypto).
 *
 * Needs root, Debian's janus, chromium and iptables. Builds the web app to a temporary folder first.
 */
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FixtureParticipant } from '../apps/server/src/testing/fixtures.ts';
import type { Client } from '../e2e/support/client-netns.ts';
import { insidePrivateNetns, runInPrivateNetns, WEB_DIST } from './private-netns.ts';
import { chromiumProcesses, cpuBetween, describeCpu, meanThreadMs, processTree, rendererCpu, rendererCpuBetween, threadCpu, type RendererCpu } from './browser-threads.ts';
import { cpuPercentOver, cpuSeconds, loadAverage, machine, median, percentile } from './process-figures.ts';
import { profileMainThread } from './cpu-profile.ts';
import { decodingVideosAt, firstVideoDecodedAt, inboundTotals, joinLadder, keyFrameTotals, ladderAroundResumes, layerState, receivedLayers, joinTimeline, RECORD_JOIN_TIMELINE, streamsGrown, videoFramesByStream, videoRecoveryCounters, type JoinTimeline } from './page-video-probes.ts';

if (!insidePrivateNetns()) runInPrivateNetns(import.meta.url, process.argv.slice(2));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JOINS = Number(process.env.BENCH_JOINS) || 10;
const CUTS = Number(process.env.BENCH_CUTS) || 3;
/** The product's pages as a browser without encoded transforms, or with transforms that do not encrypt (see the top of this file). */
const WITHOUT_E2EE = process.env.BENCH_E2EE === '0';
const TRANSFORMS_ONLY = process.env.BENCH_E2EE === 'transforms';
/**
 * Every encoded transform the page makes goes to a worker that reads each frame and writes it back as it came,
 * taking and setting its data as the product's worker does: the product's frame loop (frame-pipe.ts) without the
 * crypto. Both ends pass plain frames, so the call works; the product's own worker gets no frames.
 */
const PASS_FRAMES_THROUGH = `{
  const Real = window.RTCRtpScriptTransform;
  const source = 'onrtctransform = async ({ transformer }) => { const r = transformer.readable.getReader(); const w = transformer.writable.getWriter(); for (;;) { const { value, done } = await r.read(); if (done) return; value.data = value.data; w.write(value).catch(() => {}); } };';
  let worker = null;
  window.RTCRtpScriptTransform = function (_productWorker, options) {
    worker ??= new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    return new Real(worker, options);
  };
}`;
const CUT_MS = 5_000;
/** A join opening the page slower than this prints its steps (the slowest of a normal run is 3-5 s). */
const SLOW_JOIN_MS = 8_000;
/**
 * The call's CPU window. Over 10 s the same Janus, forwarding the same streams, gave 0.81-1.33x bare in fifteen runs
 * (28 November) and 0.87-1.21x in six (that evening): its packets come in bursts (key frames, the senders' bit-rate
 * steps), and a window that short samples a few of them. The grid, a load of its own, keeps 10 s.
 */
const CALL_CPU_WINDOW_MS = 30_000;
const CPU_WINDOW_MS = 10_000;
const PUBLISHERS = 7;
const WITH_MICROPHONE = 2;
/** Targets of the media-reach issue. */
const TARGET = { joinP95Ms: 1_500, joinRatio: 1.5, cpuRatio: 1.1, gridStreamsPerCore: 300 };
/** The grid figure (adaptive-quality issue): sixteen publishers, GRID_VIEWERS viewers receiving all sixteen. */
const GRID = process.env.BENCH_GRID !== '0';
/** `BENCH_GRID_ONLY=1`: only the two grid figures (a few minutes instead of the whole call bench). */
const GRID_ONLY = process.env.BENCH_GRID_ONLY === '1';
const GRID_PUBLISHERS = 16;
const GRID_VIEWERS = 4;

const { ClientTopology, SERVER_ADDRESS } = await import('../e2e/support/client-netns.ts');
const { newUserPage } = await import('../e2e/support/browser.ts');
const { RECORD_PEER_CONNECTIONS } = await import('../e2e/support/peer-connections.ts');
const { movingBarClip, testPin } = await import('../e2e/support/fake-camera.ts');
const { dataDirWithMeeting, postgresWithMeeting } = await import('../e2e/support/seed.ts');
const { startServer, freePort } = await import('../e2e/support/server.ts');
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
// Bounded: a run that hangs is stopped (and cleaned up) rather than left holding browsers on a shared machine.
// `BENCH_GUARD_MIN` for a machine slow enough that a whole run takes longer.
const GUARD_MIN = Number(process.env.BENCH_GUARD_MIN) || 12;
const guard = setTimeout(() => {
  console.error(`media call bench: over ${GUARD_MIN} minutes, stopped`);
  void cleanUp().finally(() => process.exit(2));
}, GUARD_MIN * 60_000);

// ── The network: clients c1, c2 (publishers) and c3 (the joiner) on a bridge holding 198.18.0.1 ──
const topology = await ClientTopology.create(3);
cleanups.push(() => topology.close());
const [c1, c2, c3] = topology.clients as [Client, Client, Client];

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
const barePort = await freePort();
const bareServer = http.createServer((req, res) => {
  const file = bareFiles[new URL(req.url ?? '/', 'http://x').pathname];
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': `${file.type}; charset=utf-8`, 'cache-control': file.cache ? 'max-age=3600' : 'no-cache' }).end(file.body);
});
await new Promise<void>((resolve) => bareServer.listen(barePort, SERVER_ADDRESS, resolve));
cleanups.push(() => new Promise((r) => bareServer.close(r)));
const bareOrigin = `http://${SERVER_ADDRESS}:${barePort}`;

// Janus's WebSocket listens on loopback only (as the product configures it). The bare clients reach it through a
// DNAT in this namespace's kernel: no process of ours in the path.
const janusWsPort = Number(new URL(janus.url).port);
for (const dev of ['all', 'vmbr0']) fs.writeFileSync(`/proc/sys/net/ipv4/conf/${dev}/route_localnet`, '1');
execFileSync('iptables-legacy', ['-t', 'nat', '-A', 'PREROUTING', '-d', SERVER_ADDRESS, '-p', 'tcp', '--dport', String(janusWsPort), '-j', 'DNAT', '--to-destination', `127.0.0.1:${janusWsPort}`]);
const bareWs = `ws://${SERVER_ADDRESS}:${janusWsPort}`;

// ── Browsers: one Chromium per client namespace, the same three for both phases ──
const clip = movingBarClip({ width: 192, height: 108, fps: 10 });
const camera = ['--use-fake-device-for-media-stream=fps=10', `--use-file-for-fake-video-capture=${clip}`];
const origins = `${server.url},${bareOrigin}`;
const [b1, b2, b3] = (await Promise.all([c1, c2, c3].map((c) => c.launch(origins, camera)))) as [Browser, Browser, Browser];
const publisherBrowser = (i: number) => (i < 4 ? b1 : b2);

async function openPage(browser: Browser, opened: BrowserContext[], microphone: boolean): Promise<Page> {
  const { context, page } = await newUserPage(browser, server.url);
  opened.push(context);
  await context.addInitScript(RECORD_PEER_CONNECTIONS);
  await context.addInitScript(RECORD_JOIN_TIMELINE);
  if (WITHOUT_E2EE) await context.addInitScript('delete window.RTCRtpScriptTransform;');
  if (TRANSFORMS_ONLY) await context.addInitScript(PASS_FRAMES_THROUGH);
  if (!microphone) await withoutMicrophone(page);
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
interface Recovery {
  joinerReceives: number;
  othersReceive: number;
  bothWays: number;
}
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
  janusCpu: number;
  serverCpu: number;
  /** % of a core per "process kind / thread" of the three browsers in the CPU window. */
  browserCpu: [string, number][];
  streams: number;
  recoveries: Recovery[];
  failedRecoveries: string[];
  load: string;
}

/** What differs between the product and the bare client: how a page gets into the call and turns its camera on. */
interface Phase {
  name: string;
  /** A publisher page with its camera on, in the call. */
  publisher(i: number, opened: BrowserContext[]): Promise<Page>;
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
  cameraOn(page: Page): Promise<void>;
  /** What the page says went wrong, for a failure message. */
  diagnose(page: Page): Promise<string>;
}

async function runPhase(phase: Phase): Promise<PhaseFigures> {
  const opened: BrowserContext[] = [];
  try {
    const started = Date.now();
    // Publishers enter in two waves (as people do, and so that two shared cores are not asked for seven at once).
    const publishers: Page[] = [];
    for (const wave of [[0, 1, 2, 3], [4, 5, 6]]) publishers.push(...(await Promise.all(wave.map((i) => phase.publisher(i, opened)))));
    await Promise.all(
      publishers.map((p, i) =>
        within(p.evaluate(decodingVideosAt, PUBLISHERS - 1), 120_000, `${phase.name}: publisher ${i} decoding the six others`).catch(async (err: Error) => {
          throw new Error(`${err.message}; ${await phase.diagnose(p).catch(() => '')}`);
        }),
      ),
    );
    console.log(`${phase.name}: seven publishers decode each other after ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const joins: Join[] = [];
    // The seven cameras' key-frame requests and key frames over each series of joins, with the series' length:
    // Janus also asks each camera for one every 10 s without a key frame (fir_freq), so a slower series counts more.
    type CameraFigure = keyof Awaited<ReturnType<typeof keyFrameTotals>>;
    type Cameras = Record<CameraFigure | 'at', number> & { byPage: number[] };
    const cameras = async (): Promise<Cameras> => {
      const all = await Promise.all(publishers.map((p) => p.evaluate(keyFrameTotals)));
      const sum = (k: CameraFigure) => all.reduce((n, t) => n + t[k], 0);
      const figures = Object.fromEntries((Object.keys(all[0]!) as CameraFigure[]).map((k) => [k, sum(k)])) as Record<CameraFigure, number>;
      return { ...figures, at: performance.now(), byPage: all.map((t) => t.viewerRequests) };
    };
    // The seven pages as viewers: what they asked for themselves, and why they might have.
    const viewers = (from: Cameras, to: Cameras, each: (k: CameraFigure) => string) =>
      `their pages as viewers: ${each('viewerRequests')} requests of their own, ${each('configures')} configure messages, ${each('lost')} packets lost, ${each('dropped')} frames dropped, ${each('freezes')} freezes, ${each('unopened')} frames that did not open, ${each('connectionsMade')} connections made, ${each('iceDown')} times ICE disconnected or failed, ${each('resumes')} signalling sockets resumed`;
    const perJoin = (from: Cameras, to: Cameras) => {
      const each = (k: CameraFigure) => ((to[k] - from[k]) / (JOINS + 1)).toFixed(1);
      return `${each('requests')} key-frame requests, ${each('keyFrames')} key frames, in ${((to.at - from.at) / 1000 / (JOINS + 1)).toFixed(1)} s a join; ${viewers(from, to, each)}`;
    };
    const camerasAtStart = await cameras();
    // The server's and Janus's CPU over the whole series of joins (logins, gettoken, the relay's messages).
    const joinsStarted = { at: performance.now(), server: cpuSeconds(serverPid), janus: cpuSeconds(janusPid) };
    const failedJoins: string[] = [];
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
        const startedAt = await phase.joinFromOpenPage(page, async () => {
          cpuBefore = await rendererCpu(b3);
        });
        const at = await within(page.evaluate(decodingVideosAt, PUBLISHERS), 30_000, 'all seven remote videos decoding (from an open page)');
        const cpu = rendererCpuBetween(cpuBefore, await rendererCpu(b3));
        if (profile) console.log(`${phase.name}: the last join from an open page, its main thread from the lobby's start until all decode,\n${(await profile.stop(WEB_DIST)).join('\n')}`);
        if (j > 0) {
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
    const camerasAfterOpenPage = await cameras();
    console.log(`${phase.name}: the seven cameras per join from an open page (warm-up included): ${perJoin(camerasAtStart, camerasAfterOpenPage)}`);
    for (let j = 0; j <= JOINS; j++) {
      const page = await phase.joinerPage(joinerOpened);
      try {
        const profile = j === JOINS && process.env.BENCH_PROFILE === '1' ? await profileMainThread(page) : null;
        const cpuBefore = await rendererCpu(b3);
        // Watched from the navigation's commit, not its load event: the product page's load event came after its
        // first videos had decoded, and a probe started only then timed the load event, not the media.
        await page.goto(phase.joinUrl, { timeout: 60_000, waitUntil: 'commit' });
        const at = await within(page.evaluate(decodingVideosAt, PUBLISHERS), 30_000, 'all seven remote videos decoding');
        const cpu = rendererCpuBetween(cpuBefore, await rendererCpu(b3));
        if (profile) console.log(`${phase.name}: the last join's main thread until all decode,\n${(await profile.stop(WEB_DIST)).join('\n')}`);
        // Join 0 warms caches and JIT and is not counted.
        if (j > 0) joins.push({ fromNavigation: at, firstFromNavigation: await page.evaluate(firstVideoDecodedAt), fromSession: at - (await phase.sessionStart(page)), timeline: await page.evaluate(joinTimeline, 0), cpu });
        // A join far slower than the rest explains itself: its steps, and what the page says of its connections.
        // Its explanation failing (a page too starved to answer in time) must not drop the join from the figures.
        if (at > SLOW_JOIN_MS) console.log(`${phase.name}: join ${j} took ${at.toFixed(0)} ms; ${await phase.diagnose(page).catch((e: Error) => e.message)}; ms since navigation:\n${(await page.evaluate(joinLadder)).join('\n')}`);
        else if (j === JOINS && process.env.BENCH_LADDER === '1') console.log(`${phase.name}: the last join, ms since navigation:\n${(await page.evaluate(joinLadder)).join('\n')}`);
      } catch (err) {
        failedJoins.push(`${(err as Error).message}; ${await phase.diagnose(page).catch(() => '')}`);
      }
      if (j < JOINS) {
        await page.close();
        await sleep(1_500); // the others drop the leaver's feed, Janus frees its connections
      } else joiner = page;
    }
    opened.push(...joinerOpened);
    const joinSeconds = (performance.now() - joinsStarted.at) / 1000;
    const during = (pid: number, before: number) => (((cpuSeconds(pid) - before) / joinSeconds) * 100).toFixed(1);
    console.log(`${phase.name}: over the ${JOINS + 1} joins (${joinSeconds.toFixed(0)} s): server ${during(serverPid, joinsStarted.server)} %, Janus ${during(janusPid, joinsStarted.janus)} % of a core`);
    if (!joiner) throw new Error('no joiner');
    console.log(`${phase.name}: ${joins.length} joins timed, median ${median(joins.map((x) => x.fromNavigation)).toFixed(0)} ms`);
    console.log(`${phase.name}: the seven cameras per join opening the page (warm-up included): ${perJoin(camerasAfterOpenPage, await cameras())}`);
    for (const [i, p] of publishers.entries()) {
      const lines = await p.evaluate(ladderAroundResumes, [4_000, 3_000] as [number, number]);
      if (lines.length) console.log(`${phase.name}: publisher ${i}'s page replaced its /media socket during the joins:\n${lines.slice(-200).join('\n')}`);
    }

    await sleep(3_000);
    const pages = [...publishers, joiner];
    const browserProcesses = chromiumProcesses(processTree([process.pid]));
    const threadsBefore = threadCpu(browserProcesses);
    const windowStart = performance.now();
    const camerasBeforeWindow = await cameras();
    const [janusCpu, serverCpu] = (await cpuPercentOver([janusPid, serverPid], CALL_CPU_WINDOW_MS)) as [number, number];
    const camerasAfterWindow = await cameras();
    console.log(
      `${phase.name}: the seven cameras in the steady window (${CALL_CPU_WINDOW_MS / 1000} s, nobody joining): ${camerasAfterWindow.requests - camerasBeforeWindow.requests} key-frame requests, ${camerasAfterWindow.keyFrames - camerasBeforeWindow.keyFrames} key frames; ${viewers(camerasBeforeWindow, camerasAfterWindow, (k) => String(camerasAfterWindow[k] - camerasBeforeWindow[k]))} (requests by page: ${camerasAfterWindow.byPage.map((n, i) => n - (camerasBeforeWindow.byPage[i] ?? 0)).join(' ')})`,
    );
    const browserCpu = cpuBetween(threadsBefore, threadCpu(browserProcesses), (performance.now() - windowStart) / 1000);
    const perPage = await Promise.all(pages.map(async (p) => (await p.evaluate(inboundTotals)).streams));
    const streams = perPage.reduce((a, b) => a + b, 0);
    const load = loadAverage();
    console.log(`${phase.name}: streams received per page in the CPU window (publishers, then the joiner): ${perPage.join(' ')}`);
    // The product's own layer choice per page (the bare page takes whatever Janus sends): each received video's
    // simulcast layer, or why it is off (a page that read a starved machine as a congested link would turn them down).
    const layers = await Promise.all(pages.map((p) => p.evaluate(receivedLayers)));
    if (layers.some((l) => l !== null)) console.log(`${phase.name}: layers received per page at the window's end (substream, or off): ${layers.map((l) => l ?? '-').join(' | ')}`);
    const browserTotal = browserCpu.reduce((a, [, pct]) => a + pct, 0);
    console.log(`${phase.name}: the three browsers in the CPU window, ${browserTotal.toFixed(1)} % of a core for ${pages.length} pages (by process, busiest threads):`);
    for (const line of describeCpu(browserCpu)) console.log(`  ${line}`);

    // The joiner's camera on, and a publisher decoding it, before its link is cut. The first publisher that decodes
    // all seven it receives watches the others' side (not always the first: see the streams per page above).
    await phase.cameraOn(joiner);
    const observer = await Promise.any(publishers.map((p) => within(p.evaluate(decodingVideosAt, PUBLISHERS), 60_000, 'decoding all seven').then(() => p))).catch(() => {
      throw new Error(`${phase.name}: no publisher decodes the joiner's camera within 60 s`);
    });
    const recoveries: Recovery[] = [];
    const failedRecoveries: string[] = [];
    for (let k = 0; k < CUTS; k++) {
      await sleep(3_000);
      const cutAt = await joiner.evaluate(() => performance.now());
      const cutHere = performance.now();
      c3.cut();
      await sleep(CUT_MS);
      const [joinerBefore, observerBefore, countersBefore] = await Promise.all([joiner.evaluate(videoFramesByStream), observer.evaluate(videoFramesByStream), joiner.evaluate(videoRecoveryCounters)]);
      c3.restore();
      const t0 = performance.now();
      let joinerAt = NaN;
      let observerAt = NaN;
      // For a slow recovery: when each of the joiner's streams decoded again, and its layer choice as it changed.
      const streamBackAt = new Map<string, number>();
      const layerSteps: string[] = [];
      let lastLayers: string | null = null;
      while (performance.now() - t0 < 30_000 && (Number.isNaN(joinerAt) || Number.isNaN(observerAt))) {
        const [j, o, layers] = await Promise.all([joiner.evaluate(videoFramesByStream), observer.evaluate(videoFramesByStream), joiner.evaluate(layerState)]);
        const now = performance.now() - t0;
        for (const [id, frames] of Object.entries(j)) if (frames > (joinerBefore[id] ?? 0) && !streamBackAt.has(id)) streamBackAt.set(id, now);
        if (layers !== null && layers !== lastLayers) layerSteps.push(`${f0(now)} ms ${(lastLayers = layers)}`);
        if (Number.isNaN(joinerAt) && streamsGrown(joinerBefore, j) >= PUBLISHERS) joinerAt = now;
        if (Number.isNaN(observerAt) && streamsGrown(observerBefore, o) >= PUBLISHERS) observerAt = now;
        await sleep(50);
      }
      if (Number.isNaN(joinerAt) || Number.isNaN(observerAt)) failedRecoveries.push(`cut ${k + 1}: joiner ${joinerAt.toFixed(0)} ms, others ${observerAt.toFixed(0)} ms (NaN: not within 30 s); ${await phase.diagnose(joiner)}`);
      else recoveries.push({ joinerReceives: joinerAt / 1000, othersReceive: observerAt / 1000, bothWays: Math.max(joinerAt, observerAt) / 1000 });
      // A recovery over the browser test's 5 s explains itself: the joiner's steps since the cut.
      if (!(Math.max(joinerAt, observerAt) <= 5_000)) {
        const steps = (await joiner.evaluate(joinLadder)).filter((line) => Number(line.trim().split(/\s+/)[0]) >= cutAt);
        const countersAfter = await joiner.evaluate(videoRecoveryCounters);
        const perStream = Object.entries(countersAfter).map(([id, c]) => {
          const b = countersBefore[id] ?? { frames: 0, keyFrames: 0, asked: 0, lost: 0, nacks: 0 };
          return `  ${id}: decoding again at ${streamBackAt.has(id) ? `${f0(streamBackAt.get(id)!)} ms` : 'never'}; since the restore ${c.keyFrames - b.keyFrames} key frames decoded, ${c.asked - b.asked} asked for, ${c.lost - b.lost} packets lost, ${c.nacks - b.nacks} NACKs`;
        });
        console.log(`${phase.name}: cut ${k + 1}, the joiner's streams (ms after the restore):\n${perStream.join('\n')}\n  its layer choice as it changed:\n${layerSteps.map((l) => `  ${l}`).join('\n') || '  (bare page)'}`);
        console.log(`${phase.name}: cut ${k + 1} took ${f0(joinerAt)} / ${f0(observerAt)} ms (joiner / others); the joiner's steps since the cut, ms since its navigation (cut at ${f0(cutAt)}, restored ${f0(t0 - cutHere)} ms later: the cut's ${CUT_MS} ms and the frame counts read before the restore):\n${steps.slice(-250).join('\n')}`);
      }
    }
    console.log(`${phase.name}: ${recoveries.length} of ${CUTS} recoveries timed`);
    console.log(`${phase.name}: the others' side watched on publisher ${publishers.indexOf(observer)}`);
    return { joins, openPageJoins, openPageFirst, openPageSteps, openPageCpu, failedJoins, janusCpu, serverCpu, browserCpu, streams, recoveries, failedRecoveries, load };
  } finally {
    for (const c of opened) await c.close().catch(() => {});
    await sleep(3_000); // Janus tears the call down before the next phase
  }
}

// ── Product: the real meeting screen ──
const meetingUrl = `${server.url}/meetings/${seeded.meeting.id}/conference?vmtest=1`;
const lobbyUrl = `${server.url}/meetings/${seeded.meeting.id}/lobby?vmtest=1`;
async function loggedIn(browser: Browser, who: Person, opened: BrowserContext[], microphone: boolean): Promise<Page> {
  const page = await openPage(browser, opened, microphone);
  if ('persona' in who.login) await loginAs(page, who.login.persona);
  else await loginWithPin(page, who.login.pin, who.login.name);
  const consent = await giveConsent(page, seeded.meeting.id);
  if (consent !== 200) throw new Error(`consent refused (${consent})`);
  return page;
}
const connected = (page: Page) =>
  page.waitForFunction(() => document.querySelector('.conference')?.getAttribute('data-connection-status') === 'connected', null, { timeout: 90_000 });
let joinerContext: BrowserContext | null = null;
const product: Phase = {
  name: 'product',
  async publisher(i, opened) {
    const page = await loggedIn(publisherBrowser(i), PEOPLE[i]!, opened, i < WITH_MICROPHONE);
    await page.goto(meetingUrl, { timeout: 90_000 });
    await connected(page);
    await page.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Stäng av din kamera' }).waitFor({ timeout: 60_000 });
    return page;
  },
  async joinerPage(opened) {
    if (!joinerContext) {
      const first = await loggedIn(b3, PEOPLE[PUBLISHERS]!, opened, false);
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
  async cameraOn(page) {
    await page.getByRole('button', { name: 'Slå på din kamera' }).click({ timeout: 30_000 });
  },
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
const bareSays = (page: Page) => page.evaluate(() => (window as unknown as { __bare?: { error: string } }).__bare?.error || 'no error reported');
const bare: Phase = {
  name: 'bare Janus',
  async publisher(i, opened) {
    const page = await openPage(publisherBrowser(i), opened, true);
    await page.goto(bareUrl(`P${i}`, { audio: i < WITH_MICROPHONE ? '1' : '0', simulcast: '1' }), { timeout: 60_000 });
    return page;
  },
  async joinerPage(opened) {
    return openPage(b3, opened, false);
  },
  get joinUrl() {
    return bareUrl('joiner', { audio: '0', camera: 'off', simulcast: '1' });
  },
  async joinFromOpenPage(page, beforeJoin) {
    await page.goto(bareUrl('joiner', { audio: '0', camera: 'off', simulcast: '1', start: 'click' }), { timeout: 60_000 });
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
  async cameraOn(page) {
    await page.evaluate(() => {
      const cam = (window as unknown as { __bare?: { camera: MediaStreamTrack | null } }).__bare?.camera;
      if (cam) cam.enabled = true;
    });
  },
  diagnose: bareSays,
};

interface GridFigures {
  janusCpu: number;
  streams: number;
  viewerBytesPerSecond: number;
  load: string;
}

/**
 * Sixteen tiles: sixteen publishers that receive nothing, and viewers that receive all sixteen. Without simulcast
 * every viewer gets every camera whole, whatever its tile size; with it the publishers send three layers and each
 * viewer asks for the lowest (small grid tiles, as the product's layer choice does for tiles up to 240 px high).
 * Bare janus.js pages: what is measured is Janus forwarding, and sixteen product pages would each also decode
 * fifteen others (240 decoders on two shared cores measure Chromium, not Janus).
 */
async function runGrid(simulcast: boolean): Promise<GridFigures> {
  const room = bareRoom + (simulcast ? 2 : 1);
  const layers: Record<string, string> = simulcast ? { simulcast: '1' } : {};
  // Cameras big enough for three layers (Chromium sends three from 960x540 up: 960, 480, 240 wide), in both runs.
  const gridCamera = ['--use-fake-device-for-media-stream=fps=10', `--use-file-for-fake-video-capture=${movingBarClip({ width: 960, height: 540, fps: 10 })}`];
  const [g1, g2] = (await Promise.all([c1, c2].map((c) => c.launch(origins, gridCamera)))) as [Browser, Browser];
  await control.createRoom(room, crypto.randomBytes(12).toString('base64url'), { publishers: ROOM_PUBLISHERS, description: 'grid', requireE2ee: false });
  const url = (name: string, extra: Record<string, string>) =>
    `${bareOrigin}/bare/?${new URLSearchParams({ ws: bareWs, token: signJanusToken(secrets.tokenSecret, Date.now() / 1000 + 3600), room: String(room), name, audio: '0', ...extra })}`;
  const opened: BrowserContext[] = [];
  try {
    for (let i = 0; i < GRID_PUBLISHERS; i++) {
      const page = await openPage(i % 2 ? g2 : g1, opened, false);
      await page.goto(url(`G${i}`, { subscribe: '0', ...layers }), { timeout: 60_000 });
    }
    const viewers: Page[] = [];
    for (let i = 0; i < GRID_VIEWERS; i++) {
      const page = await openPage(b3, opened, false);
      await page.goto(url(`V${i}`, { publish: '0', ...(simulcast ? { substream: '0' } : {}) }), { timeout: 60_000 });
      viewers.push(page);
    }
    await Promise.all(viewers.map((v, i) => within(v.evaluate(decodingVideosAt, GRID_PUBLISHERS), 120_000, `grid viewer ${i} decoding sixteen`)));
    await sleep(3_000);
    const bytesBefore = (await viewers[0]!.evaluate(inboundTotals)).bytes;
    const t0 = performance.now();
    const [janusCpu] = (await cpuPercentOver([janusPid], CPU_WINDOW_MS)) as [number];
    const viewerBytesPerSecond = ((await viewers[0]!.evaluate(inboundTotals)).bytes - bytesBefore) / ((performance.now() - t0) / 1000);
    const streams = (await Promise.all(viewers.map(async (v) => (await v.evaluate(inboundTotals)).streams))).reduce((a, b) => a + b, 0);
    return { janusCpu, streams, viewerBytesPerSecond, load: loadAverage() };
  } finally {
    for (const c of opened) await c.close().catch(() => {});
    await Promise.all([g1, g2].map((b) => b.close().catch(() => {})));
  }
}

/** The grid figures, without and with simulcast, beside the target. */
function printGrids(...grids: (GridFigures | null)[]): void {
  const hows = ['no simulcast: every viewer gets every camera whole', 'simulcast, three layers sent, every viewer on the lowest'];
  for (const [i, g] of grids.entries()) {
    if (!g) continue;
    const perStream = g.janusCpu / g.streams;
    console.log(
      `grid of ${GRID_PUBLISHERS} (bare janus.js, ${hows[i]}; no E2EE; 960x540 cameras at 10 fps): ${GRID_VIEWERS} viewers, ` +
        `Janus ${g.janusCpu.toFixed(1)} % of a core for ${g.streams} subscribed streams = ${perStream.toFixed(3)} % per stream, ` +
        `${(100 / perStream).toFixed(0)} streams per core (target ≥ ${TARGET.gridStreamsPerCore}: ${100 / perStream >= TARGET.gridStreamsPerCore ? 'met' : 'NOT met'}); ` +
        `a grid viewer receives ${((g.viewerBytesPerSecond * 8) / 1000).toFixed(0)} kbit/s (${(g.viewerBytesPerSecond / 1000).toFixed(0)} kB/s); load average ${g.load}`,
    );
  }
}

let productFigures: PhaseFigures;
let bareFigures: PhaseFigures;
let grid: GridFigures | null = null;
let gridSimulcast: GridFigures | null = null;
try {
  if (GRID_ONLY) {
    printGrids(await runGrid(false), await runGrid(true));
    clearTimeout(guard);
    await cleanUp();
    process.exit(0);
  }
  productFigures = await runPhase(product);
  await control.createRoom(bareRoom, crypto.randomBytes(12).toString('base64url'), { publishers: ROOM_PUBLISHERS, description: 'bare Janus baseline', requireE2ee: false });
  bareFigures = await runPhase(bare);
  if (GRID) {
    grid = await runGrid(false);
    gridSimulcast = await runGrid(true);
  }
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
  const rec = f.recoveries.map((r) => r.bothWays);
  return {
    joinMedian: median(nav),
    firstMedian: median(f.joins.map((j) => j.firstFromNavigation)),
    openPageFirstMedian: median(f.openPageFirst),
    joinP95: percentile(nav, 0.95),
    sessionMedian: median(ses),
    sessionP95: percentile(ses, 0.95),
    recoveryMedian: median(rec),
    recoveryMax: Math.max(...rec),
    joinerReceivesMedian: median(f.recoveries.map((r) => r.joinerReceives)),
    othersReceiveMedian: median(f.recoveries.map((r) => r.othersReceive)),
    cpuPerStream: f.janusCpu / f.streams,
    openPageJoinMedian: median(f.openPageJoins),
    openPageJoinP95: percentile(f.openPageJoins, 0.95),
    joinMainCpuMedian: median(f.joins.map((j) => j.cpu.mainMs)),
    joinRendererCpuMedian: median(f.joins.map((j) => j.cpu.allMs)),
    openPageMainCpuMedian: median(f.openPageCpu.map((c) => c.mainMs)),
    openPageRendererCpuMedian: median(f.openPageCpu.map((c) => c.allMs)),
  };
};
const browserTotal = (f: PhaseFigures) => f.browserCpu.reduce((a, [, pct]) => a + pct, 0);
const p = summary(productFigures);
const b = summary(bareFigures);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const rows: [string, string, string, string, string, string][] = [
  ['figure', 'product', 'bare Janus', 'ratio', 'target', 'result'],
  [`join by opening the meeting page → all 7 remote videos decoding, median (${JOINS} joins)`, `${f0(p.joinMedian)} ms`, `${f0(b.joinMedian)} ms`, `${f2(ratio(p.joinMedian, b.joinMedian))}×`, `≤ ${TARGET.joinRatio}× bare`, verdict(ratio(p.joinMedian, b.joinMedian) <= TARGET.joinRatio)],
  ['  … → the first remote video decoding, median', `${f0(p.firstMedian)} ms`, `${f0(b.firstMedian)} ms`, `${f2(ratio(p.firstMedian, b.firstMedian))}×`, `≤ ${TARGET.joinRatio}× bare`, verdict(ratio(p.firstMedian, b.firstMedian) <= TARGET.joinRatio)],
  ['join by opening the meeting page, p95', `${f0(p.joinP95)} ms`, `${f0(b.joinP95)} ms`, `${f2(ratio(p.joinP95, b.joinP95))}×`, `≤ ${TARGET.joinP95Ms} ms`, verdict(p.joinP95 <= TARGET.joinP95Ms)],
  [`join from an open page (the lobby's button) → the same, median (${JOINS} joins)`, `${f0(p.openPageJoinMedian)} ms`, `${f0(b.openPageJoinMedian)} ms`, `${f2(ratio(p.openPageJoinMedian, b.openPageJoinMedian))}×`, `≤ ${TARGET.joinRatio}× bare`, verdict(ratio(p.openPageJoinMedian, b.openPageJoinMedian) <= TARGET.joinRatio)],
  ['  … → the first remote video decoding, median', `${f0(p.openPageFirstMedian)} ms`, `${f0(b.openPageFirstMedian)} ms`, `${f2(ratio(p.openPageFirstMedian, b.openPageFirstMedian))}×`, `≤ ${TARGET.joinRatio}× bare`, verdict(ratio(p.openPageFirstMedian, b.openPageFirstMedian) <= TARGET.joinRatio)],
  ['join from an open page, p95', `${f0(p.openPageJoinP95)} ms`, `${f0(b.openPageJoinP95)} ms`, `${f2(ratio(p.openPageJoinP95, b.openPageJoinP95))}×`, `≤ ${TARGET.joinP95Ms} ms`, verdict(p.openPageJoinP95 <= TARGET.joinP95Ms)],
  // The work a join costs the joining page, whatever it waited for a core: a figure that holds on a loaded machine.
  ['  the joiner\'s main thread, CPU per join from an open page, median', `${f0(p.openPageMainCpuMedian)} ms`, `${f0(b.openPageMainCpuMedian)} ms`, `${f2(ratio(p.openPageMainCpuMedian, b.openPageMainCpuMedian))}×`, '', ''],
  ['  the joiner\'s renderer (all threads), the same', `${f0(p.openPageRendererCpuMedian)} ms`, `${f0(b.openPageRendererCpuMedian)} ms`, `${f2(ratio(p.openPageRendererCpuMedian, b.openPageRendererCpuMedian))}×`, '', ''],
  ['  the joiner\'s main thread, CPU per join by opening the page, median', `${f0(p.joinMainCpuMedian)} ms`, `${f0(b.joinMainCpuMedian)} ms`, `${f2(ratio(p.joinMainCpuMedian, b.joinMainCpuMedian))}×`, '', ''],
  ['  the joiner\'s renderer (all threads), the same', `${f0(p.joinRendererCpuMedian)} ms`, `${f0(b.joinRendererCpuMedian)} ms`, `${f2(ratio(p.joinRendererCpuMedian, b.joinRendererCpuMedian))}×`, '', ''],
  ['  the same from the media session start, median', `${f0(p.sessionMedian)} ms`, `${f0(b.sessionMedian)} ms`, `${f2(ratio(p.sessionMedian, b.sessionMedian))}×`, '', ''],
  ['  the same from the media session start, p95', `${f0(p.sessionP95)} ms`, `${f0(b.sessionP95)} ms`, `${f2(ratio(p.sessionP95, b.sessionP95))}×`, '', ''],
  [`link cut 5 s, restored → media both ways, median (${CUTS} cuts)`, `${f2(p.recoveryMedian)} s`, `${f2(b.recoveryMedian)} s`, `${f2(ratio(p.recoveryMedian, b.recoveryMedian))}×`, '≤ 5 s (browser test)', verdict(p.recoveryMax <= 5)],
  ['  worst of the cuts', `${f2(p.recoveryMax)} s`, `${f2(b.recoveryMax)} s`, '', '', ''],
  ['  the joiner receives all 7 again, median', `${f2(p.joinerReceivesMedian)} s`, `${f2(b.joinerReceivesMedian)} s`, '', '', ''],
  ['  a publisher receives all 7 again, median', `${f2(p.othersReceiveMedian)} s`, `${f2(b.othersReceiveMedian)} s`, '', '', ''],
  [
    'Janus CPU per forwarded stream (% of a core)',
    `${productFigures.janusCpu.toFixed(1)} % / ${productFigures.streams} = ${f2(p.cpuPerStream)}`,
    `${bareFigures.janusCpu.toFixed(1)} % / ${bareFigures.streams} = ${f2(b.cpuPerStream)}`,
    `${f2(ratio(p.cpuPerStream, b.cpuPerStream))}×`,
    `≤ ${TARGET.cpuRatio}× (E2EE vs none)`,
    verdict(ratio(p.cpuPerStream, b.cpuPerStream) <= TARGET.cpuRatio),
  ],
  ['server (relay) CPU in the same window', `${productFigures.serverCpu.toFixed(1)} %`, `${bareFigures.serverCpu.toFixed(1)} % (idle)`, '', '', ''],
  ['the three browsers\' CPU in the same window (8 pages)', `${f0(browserTotal(productFigures))} %`, `${f0(browserTotal(bareFigures))} %`, `${f2(ratio(browserTotal(productFigures), browserTotal(bareFigures)))}×`, '', ''],
];
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
console.log(`\nMedia in an eight-person call, ${runStarted.toISOString()} (bench ran ${((Date.now() - runStarted.getTime()) / 1000).toFixed(0)} s)`);
console.log(`machine: ${machine()}; load average at start ${loadAtStart}, in the product's CPU window ${productFigures.load}, in the bare one ${bareFigures.load}, at end ${loadAverage()}`);
console.log(`7 publishers (fake camera 192x108 at 10 fps, VP8; 2 with Opus) in c1/c2, 1 joiner in c3, each client in a network namespace of its own; the server on ${databaseUrl ? 'PostgreSQL' : 'the embedded database (PGlite)'}${WITHOUT_E2EE ? '; the product WITHOUT end-to-end encryption (BENCH_E2EE=0)' : ''}${TRANSFORMS_ONLY ? '; the product\'s encoded transforms passing frames untouched, no encryption (BENCH_E2EE=transforms)' : ''}`);
for (const r of rows) console.log(`| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`);
printGrids(grid, gridSimulcast);
for (const [name, f] of [['product', productFigures], ['bare Janus', bareFigures]] as const) {
  console.log(`${name}: joins from navigation ${f.joins.map((j) => f0(j.fromNavigation)).join(' ')} ms; from an open page ${f.openPageJoins.map(f0).join(' ')} ms; recoveries ${f.recoveries.map((r) => f2(r.bothWays)).join(' ')} s`);
  f.openPageSteps.forEach((line, i) => console.log(`${name}: lobby join ${i + 1}, ms since the click: ${line}`));
  console.log(`${name}: the joiner's renderer, CPU ms per join by thread (mean): from an open page ${meanThreadMs(f.openPageCpu)}; by opening the page ${meanThreadMs(f.joins.map((j) => j.cpu))}`);
  const stage = (k: keyof JoinTimeline) => f0(median(f.joins.map((j) => j.timeline[k])));
  console.log(
    `${name}, median ms since navigation: page arrived ${stage('pageArrived')}, gettoken asked ${stage('tokenAsked')}, its first byte ${stage('tokenFirstByte')}, answered ${stage('tokenAnswered')}, app bundle loaded ${stage('appScript')}, janus.js loaded ${stage('janusScript')}, media session ${f0(median(f.joins.map((j) => j.fromNavigation - j.fromSession)))}, socket open ${stage('socketOpen')}, receiving connection made ${stage('receiverCreated')}, ` +
      `Janus's offer on it ${stage('receiverOffer')}, connected ${stage('receiverConnected')}, all 7 decoding ${f0(median(f.joins.map((j) => j.fromNavigation)))}`,
  );
  for (const e of [...f.failedJoins, ...f.failedRecoveries]) console.log(`${name}: FAILED ${e}`);
}
// The relay's refusals of subscriptions to feeds it does not (or no longer) count as published in the room.
const refusals = server.output().split('\n').filter((l) => l.includes('not a feed of this room'));
if (refusals.length) {
  console.log(`product: the relay refused ${refusals.length} subscription request(s) as 'not a feed of this room' (server log); the first three:`);
  for (const l of refusals.slice(0, 3)) console.log(`  ${l.slice(0, 600)}`);
}
// One machine-readable line for `npm run bench` (bench/run-all.ts).
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'media-call', figures: { product: { ...p, janusCpu: productFigures.janusCpu, streams: productFigures.streams, failed: productFigures.failedJoins.length + productFigures.failedRecoveries.length }, bare: { ...b, janusCpu: bareFigures.janusCpu, streams: bareFigures.streams, failed: bareFigures.failedJoins.length + bareFigures.failedRecoveries.length }, grid, gridSimulcast, target: TARGET } })}`);

clearTimeout(guard);
await cleanUp();
process.exit(0);
