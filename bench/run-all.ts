/**
 * `npm run bench`: every benchmark of the project in one go, then one table of the figures with their targets.
 * Each bench runs as its own process (as `npm run bench:*` would run it), its output is passed through, and its
 * figures are read from the one `BENCH_JSON {...}` line it prints last. A bench that fails or cannot run here
 * (no PostgreSQL, no Redis, no network namespace) becomes a row saying so; the others still run.
 *
 * The web is built once to WEB_DIST (default a temporary folder) and shared by the bundle, LCP and media benches.
 * Environment: BENCH_ONLY=meetings,chat,... to run a subset; each bench's own BENCH_* variables pass through.
 */
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIST = process.env.WEB_DIST || path.join(os.tmpdir(), 'videomote-bench-web');
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);

interface Bench {
  key: string;
  file: string;
  args?: string[];
}
const BENCHES: Bench[] = [
  { key: 'web-bundle', file: 'bench/web-bundle.ts' },
  { key: 'home-lcp', file: 'bench/home-lcp.ts' },
  { key: 'lighthouse', file: 'bench/lighthouse.ts' },
  { key: 'meetings', file: 'bench/meetings-api.ts' },
  { key: 'chat', file: 'bench/chat-fanout.ts' },
  { key: 'media', file: 'bench/media-first-frame.ts' },
  { key: 'media-call', file: 'bench/media-call.ts' },
  { key: 'grid', file: 'bench/grid.ts' },
];

interface Outcome {
  key: string;
  seconds: number;
  json: Record<string, unknown> | null;
  status: number | null;
  lastLines: string[];
}

function run(b: Bench): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', b.file, ...(b.args ?? [])], {
      cwd: root,
      env: { ...process.env, WEB_DIST },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let json: Record<string, unknown> | null = null;
    const lines: string[] = [];
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith('BENCH_JSON ')) json = JSON.parse(line.slice('BENCH_JSON '.length));
        else {
          process.stdout.write(`  [${b.key}] ${line}\n`);
          lines.push(line);
        }
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n').filter(Boolean)) {
        process.stderr.write(`  [${b.key}] ${line}\n`);
        lines.push(line);
      }
    });
    child.on('close', (status) => resolve({ key: b.key, seconds: (Date.now() - started) / 1000, json, status, lastLines: lines.slice(-3) }));
  });
}

type Row = [benchmark: string, figure: string, target: string, verdict: string];
const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

function rowsFor(o: Outcome): Row[] {
  const j = o.json as { figures?: unknown; clients?: number } | null;
  if (!j) {
    const why = o.lastLines.find((l) => /SKIPPED|Could not|ECONNREFUSED|not/i.test(l)) ?? o.lastLines.at(-1) ?? '';
    return [[o.key, `did not run (exit ${o.status}) ${why.slice(0, 80)}`, '', 'n/a']];
  }
  switch (o.key) {
    case 'web-bundle': {
      const f = j.figures as { initialGzipKb: number };
      return [['Initial web bundle (gzip)', `${f1(f.initialGzipKb)} KB`, '< 100 KB', verdict(f.initialGzipKb < 100)]];
    }
    case 'home-lcp': {
      const f = j.figures as { runs: number; medianMs: number; minMs: number; maxMs: number };
      return [['Home page LCP, headless Chromium', `median ${f0(f.medianMs)} ms (${f0(f.minMs)}–${f0(f.maxMs)}, ${f.runs} cold loads)`, '< 2500 ms', verdict(f.medianMs < 2500)]];
    }
    case 'lighthouse': {
      type Page = { key: string; performance: number; accessibility: number; 'best-practices': number; fcpMs: number; lcpMs: number; tbtMs: number };
      const fs = j.figures as { mode: string; floor?: boolean; load: number[]; pages: Page[] }[];
      return fs.flatMap((m) =>
        m.pages.map((p): Row => [
          `Lighthouse ${p.key}, ${m.mode}`,
          `perf ${p.performance.toFixed(2)}, a11y ${p.accessibility.toFixed(2)}, bp ${p['best-practices'].toFixed(2)}; FCP ${f0(p.fcpMs)} ms, LCP ${f0(p.lcpMs)} ms, TBT ${f0(p.tbtMs)} ms (load ${m.load.map(f1).join('→')})`,
          // The floor is the browser alone, beside the product's rows: no target of its own.
          m.floor ? 'the floor (no target)' : 'perf ≥ 0.95, a11y and bp 1',
          m.floor ? '' : verdict(p.performance >= 0.95 && p.accessibility >= 1 && p['best-practices'] >= 1),
        ]),
      );
    }
    case 'meetings': {
      const fs = j.figures as { name: string; mode: string; reqPerSec: number; p50: number; p99: number; errors: number }[];
      return fs.map((f) => [
        `Meetings API: ${f.name}, ${f.mode === 'fixed rate' ? 'fixed rate' : 'saturation'}`,
        `${f0(f.reqPerSec)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms${f.errors ? `, ${f.errors} errors` : ''}`,
        'p99 < 50 ms',
        verdict(f.p99 < 50 && !f.errors),
      ]);
    }
    case 'chat': {
      const fs = j.figures as { scenario: string; rate: number; p99: number; expected: number; deliveries: number }[];
      const bare = (rate: number) => fs.find((b) => b.scenario.startsWith('bare') && b.rate === rate);
      const rows: Row[] = fs.map((f) => {
        const lost = f.expected - f.deliveries;
        const figure = `${f.rate} msg/s: p99 ${f1(f.p99)} ms${lost ? `, ${lost} lost` : ''}`;
        if (f.scenario.startsWith('bare')) return [`Chat, ${j.clients ?? 500} clients, ${f.scenario}`, figure, 'baseline', '—'];
        const b = bare(f.rate);
        const ratio = b ? f.p99 / b.p99 : NaN;
        return [
          `Chat, ${j.clients ?? 500} clients, ${f.scenario}`,
          `${figure}${b ? ` = ${ratio.toFixed(2)}× bare ws` : ''}`,
          'p99 < 100 ms and ≤ 2× bare',
          verdict(f.p99 < 100 && !lost && !(ratio > 2)),
        ];
      });
      if (!fs.some((f) => f.scenario.includes('Redis'))) rows.push(['Chat, 2 processes through Redis', 'skipped (no Redis)', 'p99 < 100 ms', 'n/a']);
      return rows;
    }
    case 'media': {
      const fs = j.figures as { n: number; median: number; cpuPerStream: number }[];
      return fs.flatMap((f): Row[] => [
        [`Media: join → first frame, ${f.n} viewer(s)`, `median ${f0(f.median)} ms`, '< 1000 ms', verdict(f.median < 1000)],
        [`Media: Janus CPU per stream, ${f.n} viewer(s)`, `${f1(f.cpuPerStream)} % of a core`, 'none set (capacity)', '—'],
      ]);
    }
    case 'media-call': {
      type Side = { joinMedian: number; joinP95: number; openPageJoinMedian: number; openPageJoinP95: number; recoveryMedian: number; recoveryMax: number; failed: number };
      const f = j.figures as { product: Side; bare: Side; saturated: boolean; target: { joinP95Ms: number; joinRatio: number; recoveryS: number } };
      const { product: p, bare: b, target } = f;
      const failed = p.failed + b.failed ? ` (${p.failed + b.failed} joins or cuts failed)` : '';
      const gen = f.saturated ? ' [generator SATURATED]' : '';
      return [
        ['Media call of 8: join → all 7 videos, p95', `${f0(p.joinP95)} ms (bare Janus ${f0(b.joinP95)} ms)${failed}${gen}`, `≤ ${target.joinP95Ms} ms`, verdict(p.joinP95 <= target.joinP95Ms)],
        ['Media call of 8: join → all 7 videos, median', `${f0(p.joinMedian)} ms = ${(p.joinMedian / b.joinMedian).toFixed(2)}× bare Janus${gen}`, `≤ ${target.joinRatio}× bare`, verdict(p.joinMedian / b.joinMedian <= target.joinRatio)],
        ['Media call of 8: from the lobby → all 7, p95', `${f0(p.openPageJoinP95)} ms (bare ${f0(b.openPageJoinP95)} ms)${gen}`, `≤ ${target.joinP95Ms} ms`, verdict(p.openPageJoinP95 <= target.joinP95Ms)],
        ['Media call of 8: all 7 back after a 5 s cut', `median ${p.recoveryMedian.toFixed(2)} s, worst ${p.recoveryMax.toFixed(2)} s (bare ${b.recoveryMedian.toFixed(2)} s)${gen}`, `≤ ${target.recoveryS} s`, verdict(p.recoveryMedian <= target.recoveryS)],
      ];
    }
    case 'grid': {
      type Window = { janus: number; saturated: boolean };
      const grids = (j.figures as { grids: unknown }).grids as { simulcast: boolean; watched: Window; alone: Window; streams: number; viewerKbps: number }[];
      return grids.map((g): Row => {
        const perCore = (100 * g.streams) / g.watched.janus;
        const how = g.simulcast ? 'simulcast, lowest layer' : 'no simulcast';
        const gen = g.watched.saturated || g.alone.saturated ? ' [generator SATURATED]' : '';
        return [`Media grid of 16 (E2EE), ${how}: streams per core`, `${f0(perCore)} (a viewer gets ${f0(g.viewerKbps)} kbit/s)${gen}`, '≥ 300', verdict(perCore >= 300)];
      });
    }
  }
  return [];
}

const loadAtStart = os.loadavg();
console.log(`npm run bench: ${os.cpus().length} cores, load average at start ${loadAtStart.map(f1).join(' ')} (the machine is shared)`);

if (!process.env.WEB_DIST && (!ONLY || ONLY.some((k) => ['web-bundle', 'home-lcp', 'lighthouse', 'media', 'media-call'].includes(k)))) {
  console.log(`building the web to ${WEB_DIST} …`);
  const build = spawnSync('npx', ['vite', 'build', '--config', 'apps/web/vite.config.ts', 'apps/web', '--outDir', WEB_DIST, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const outcomes: Outcome[] = [];
for (const b of BENCHES) {
  if (ONLY && !ONLY.includes(b.key)) continue;
  console.log(`\n▶ ${b.key} (${b.file})`);
  outcomes.push(await run(b));
}

const rows: Row[] = [['Benchmark', 'Figure', 'Target', 'Result'], ...outcomes.flatMap(rowsFor)];
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => [...r[i as 0]].length)));
const line = (r: Row) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log('\n' + line(rows[0]!));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows.slice(1)) console.log(line(r));
console.log(
  `\n${os.cpus().length} cores; load average ${loadAtStart.map(f1).join(' ')} at start, ${os.loadavg().map(f1).join(' ')} at end; ` +
    `run time ${outcomes.map((o) => `${o.key} ${f0(o.seconds)} s`).join(', ')}.`,
);
