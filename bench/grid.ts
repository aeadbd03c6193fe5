/**
 * The grid figure (issue 49): sixteen synthetic publishers through the product's path (IdP login, consent,
 * gettoken, the `/media` relay, every frame sealed with the meeting key, a `require_e2ee` room) and four synthetic
 * viewers receiving all sixteen on one subscriber connection each, against the real server and its embedded Janus in
 * a private network namespace. Twice: with simulcast (three layers sent, every viewer asks Janus for the lowest, as
 * the web app's layer choice does for small grid tiles) and without (every publisher sends one layer, the h clip, and
 * every viewer gets it whole). Janus's CPU over a window with the publishers alone, then with the viewers: per
 * subscribed stream and streams per core. Janus and the app pinned to core 0, this process (the generator) to core 1
 * (taskset, as bench/webcast.ts). Method and latest figures: docs/benchmarks.md.
 *
 *   npm run bench:grid          BENCH_GRID_SECONDS=5 npm run bench:grid
 */
import { SyntheticParticipant } from '@videomote/synthetic/participant';
import { SyntheticViewer } from '@videomote/synthetic/viewer';
import { loadClips } from '@videomote/synthetic/clips';
import { Pacer } from '@videomote/synthetic/pacer';
import { pin } from './cpu-pinning.ts';
import { insidePrivateNetns, runInPrivateNetns } from './private-netns.ts';
import { cpuSeconds, findJanus, loadAverage, machine } from './process-figures.ts';

if (!insidePrivateNetns()) {
  process.env.WEB_DIST ??= 'unused'; // no browser: no web build
  runInPrivateNetns(import.meta.url, process.argv.slice(2));
}

const { startServer } = await import('../e2e/support/server.ts');
const { seededDataDir, underWayNow } = await import('../e2e/support/seed.ts');
const { testPin } = await import('../e2e/support/fake-camera.ts');

type Participant = SyntheticParticipant;
type Viewer = SyntheticViewer;

const PUBLISHERS = 16;
const VIEWERS = 4;
/** Seconds of each CPU window (publishers alone, then with the viewers). */
const WINDOW_S = Number(process.env.BENCH_GRID_SECONDS) || 10;
/** The media-reach issue's target for the grid. */
const TARGET_STREAMS_PER_CORE = 300;
/** Above this share of its core the generator's own work would decide the figures (as bench/webcast.ts). */
const GENERATOR_CPU_LIMIT = 85;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const name = (i: number) => `Ruta ${i + 1}`;
const loginOf = (i: number) => ({ pin: testPin(70 + i), name: name(i) });

const { dataDir, seeded } = await seededDataDir((insert) =>
  insert({
    title: 'Mätning: rutnät med sexton',
    type: 0,
    ...underWayNow(),
    participants: Array.from({ length: PUBLISHERS + VIEWERS }, (_, i) => ({ pin: loginOf(i).pin, displayName: name(i), role: 'EmploymentOfficer' as const, isAdmin: i === 0 })),
  }),
);
const server = await startServer({ MEDIA_MAX_SOCKETS_PER_ADDRESS: '1000', MEDIA_MAX_HANDLES_PER_ADDRESS: '10000', MEDIA_MAX_PEER_CONNECTIONS_PER_ADDRESS: '10000' }, { dataDir });
const serverPid = server.process.pid!;
let pinned = pin(serverPid, '0') && pin(process.pid, '1');
const clips = loadClips();
const pacer = new Pacer();
const runStarted = new Date();
const loadAtStart = loadAverage();

/** The CPU of Janus, the app and this process (% of a core) over WINDOW_S, and the pacer's report for it. */
async function cpuWindow(janusPid: number) {
  const t0 = { janus: cpuSeconds(janusPid), server: cpuSeconds(serverPid), generator: process.cpuUsage(), at: performance.now() };
  pacer.resetFigures();
  await sleep(WINDOW_S * 1000);
  const seconds = (performance.now() - t0.at) / 1000;
  const gen = process.cpuUsage(t0.generator);
  const generator = ((gen.user + gen.system) / 1e6 / seconds) * 100;
  const report = pacer.report();
  return {
    seconds,
    janus: ((cpuSeconds(janusPid) - t0.janus) / seconds) * 100,
    server: ((cpuSeconds(serverPid) - t0.server) / seconds) * 100,
    generator,
    pacer: report,
    saturated: report.saturated || generator > GENERATOR_CPU_LIMIT,
    load: loadAverage(),
  };
}
type CpuWindow = Awaited<ReturnType<typeof cpuWindow>>;

interface GridFigures {
  simulcast: boolean;
  alone: CpuWindow;
  watched: CpuWindow;
  /** Video streams the four viewers received packets of in the watched window. */
  streams: number;
  /** Of them, on the lowest layer (the l clip's width in the last key frame). */
  onLowest: number;
  viewerKbps: number;
  lost: number;
  freezes: number;
}

let janusPid = 0;
const joinAll = async (from: number, count: number): Promise<Participant[]> => {
  const out: Participant[] = [];
  // Four at a time: people coming into a meeting, not a burst of twenty logins at once.
  for (let i = from; i < from + count; i += 4) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(4, from + count - i) }, (_, k) => SyntheticParticipant.join({ base: server.url, meetingId: seeded.id, login: loginOf(i + k), forwardedFor: `10.49.0.${i + k + 1}` })))));
  }
  return out;
};

async function runGrid(simulcast: boolean): Promise<GridFigures> {
  const people = await joinAll(0, PUBLISHERS + VIEWERS);
  try {
    const pubs = [];
    for (const p of people.slice(0, PUBLISHERS)) pubs.push(await p.publish(clips, pacer, { audio: false, simulcast }));
    if (!janusPid) {
      janusPid = findJanus(serverPid) ?? 0;
      if (!janusPid) throw new Error('found no janus process under the server');
      pinned &&= pin(janusPid, '0');
    }
    await sleep(3_000);
    const alone = await cpuWindow(janusPid);
    const viewers: Viewer[] = [];
    for (const v of people.slice(PUBLISHERS)) viewers.push(await SyntheticViewer.subscribe(v, pubs.map((p) => ({ feed: p.feedId, ...(simulcast ? { substream: 0, temporal: 2 } : {}) })), clips));
    await sleep(3_000);
    const totals = () =>
      viewers.map((v) => Object.values(v.counts()).filter((c) => c.kind === 'video'));
    const before = totals();
    const watched = await cpuWindow(janusPid);
    const after = totals();
    let streams = 0;
    let onLowest = 0;
    let bytes = 0;
    let lost = 0;
    let freezes = 0;
    after.forEach((streamsOfViewer, v) =>
      streamsOfViewer.forEach((c, s) => {
        const b = before[v]![s]!;
        if (c.packets > b.packets) streams += 1;
        if (c.packets > b.packets && c.width === clips.video.l.width) onLowest += 1;
        bytes += c.bytes - b.bytes;
        lost += c.lost - b.lost;
        freezes += c.freezes - b.freezes;
      }),
    );
    for (const v of viewers) v.close();
    return { simulcast, alone, watched, streams, onLowest, viewerKbps: (bytes * 8) / 1000 / VIEWERS / watched.seconds, lost, freezes };
  } finally {
    for (const p of people) p.close();
    await sleep(3_000); // Janus tears the room's handles down before the next grid
  }
}

const grids: GridFigures[] = [];
try {
  for (const simulcast of [false, true]) grids.push(await runGrid(simulcast));
} catch (err) {
  console.error(`grid bench failed: ${(err as Error).stack}\nserver: ${server.output().slice(-2000)}`);
  pacer.stop();
  await server.stop();
  process.exit(1);
}
pacer.stop();
await server.stop();

const rows: string[][] = [
  ['grid of 16 (product path, E2EE), 4 viewers', 'Janus, publishers alone', 'Janus, with the viewers', 'subscribed streams (on l)', 'per stream', 'streams per core', 'per stream over publishers alone', 'a viewer receives', 'loss, freezes', 'app', 'generator (core 1)', 'load'],
];
for (const g of grids) {
  const perStream = g.watched.janus / g.streams;
  const marginal = (g.watched.janus - g.alone.janus) / g.streams;
  const gen = (w: CpuWindow) => `${round(w.generator)} %, pacer p99 ${w.pacer.lateMs.p99} ms, stalls ${w.pacer.stalls}${w.saturated ? ': SATURATED' : ': not saturated'}`;
  rows.push([
    g.simulcast ? 'simulcast h/m/l, viewers on the lowest' : 'no simulcast: one layer (h), whole',
    `${round(g.alone.janus)} %`,
    `${round(g.watched.janus)} %`,
    `${g.streams} (${g.onLowest})`,
    `${round(perStream, 3)} %`,
    `${Math.round(100 / perStream)} (target ≥ ${TARGET_STREAMS_PER_CORE}: ${100 / perStream >= TARGET_STREAMS_PER_CORE ? 'met' : 'NOT met'})`,
    `${round(marginal, 3)} % = ${Math.round(100 / marginal)} a core`,
    `${Math.round(g.viewerKbps)} kbit/s`,
    `${g.lost}, ${g.freezes}`,
    `${round(g.watched.server)} %`,
    `${gen(g.alone)} / ${gen(g.watched)}`,
    `${g.alone.load} / ${g.watched.load}`,
  ]);
}
console.log(`\nThe grid figure, ${runStarted.toISOString()} (bench ran ${((Date.now() - runStarted.getTime()) / 1000).toFixed(0)} s, windows of ${WINDOW_S} s)`);
console.log(`machine: ${machine()}; load average at start ${loadAtStart}, at end ${loadAverage()}; pinned ${pinned ? 'Janus+app core 0, generator core 1' : 'NO (taskset failed)'}`);
console.log(`16 synthetic publishers (clips l 320x180 / m 640x360 / h 1280x720 at 30 fps, no audio), 4 synthetic viewers each receiving all 16 on one connection; "per stream" = Janus's CPU with the viewers / subscribed streams`);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
for (const r of rows) console.log(`| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`);
console.log(`BENCH_JSON ${JSON.stringify({ bench: 'grid', machine: machine(), pinned, windowSeconds: WINDOW_S, figures: { grids } })}`);
process.exit(0);
