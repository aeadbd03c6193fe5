import fs from 'node:fs';
import path from 'node:path';
import { SourceMap } from 'node:module';
import type { CDPSession, Page } from 'playwright-core';

/** A V8 CPU profile as Chromium's DevTools protocol gives it (Profiler.stop). */
interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; hitCount?: number }[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/**
 * Samples the page's main thread (1 ms) from now until `stop`, which answers where its time went. V8 samples by the
 * clock: on a loaded machine a thread waiting for a core is sampled too, counted to whatever function it was in, so
 * a function's figure there says where the thread was, not what the function cost (27 November: the same join's
 * render showed 364 ms in a text getter in one run and 254 ms in the cookie notice's <Trans> in the next).
 */
export async function profileMainThread(page: Page): Promise<{ stop(distDir: string): Promise<string[]> }> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
  return {
    async stop(distDir) {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      await cdp.detach().catch(() => {});
      return summarise(profile, distDir);
    },
  };
}

/**
 * Self time by original source file and by function, the built bundle mapped back through its source maps, so a
 * minified name reads as the module it came from (`node_modules/react-dom/…`, `src/features/…`).
 */
export function summarise(profile: Profile, distDir: string): string[] {
  const maps = new Map<string, SourceMap | null>();
  const mapFor = (url: string): SourceMap | null => {
    const file = url.match(/\/assets\/([^/?#]+\.js)/)?.[1];
    if (!file) return null;
    if (!maps.has(file)) {
      const mapFile = path.join(distDir, 'assets', `${file}.map`);
      maps.set(file, fs.existsSync(mapFile) ? new SourceMap(JSON.parse(fs.readFileSync(mapFile, 'utf8'))) : null);
    }
    return maps.get(file)!;
  };
  // Each sample's time is the delta to the next one.
  const selfMs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) selfMs.set(samples[i]!, (selfMs.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  /** A profile node's source file and function, mapped back to the original source where the map has it. */
  const frameOf = (node: Profile['nodes'][number]): { file: string; name: string } => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    let file = url ? url.replace(/^https?:\/\/[^/]+/, '') : functionName || '(anonymous)';
    // A script's own top level (its evaluation) has no name; a function's name is the original one where the map has it.
    const topLevel = !functionName && url !== '' && lineNumber === 0 && columnNumber === 0;
    let name = functionName || (topLevel ? '(top level)' : '(anonymous)');
    const entry = (url ? mapFor(url)?.findEntry(lineNumber, columnNumber) : undefined) as { originalSource?: string; originalLine?: number; name?: string } | undefined;
    if (entry?.originalSource) {
      file = entry.originalSource.replace(/^.*?(node_modules\/|src\/)/, '$1');
      name = `${functionName ? (entry.name ?? functionName) : name} (${file}:${(entry.originalLine ?? 0) + 1})`;
    }
    if (topLevel) file = `${url.replace(/^https?:\/\/[^/]+/, '')} (top level)`;
    return { file, name };
  };
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (!ms || node.callFrame.functionName === '(idle)') continue;
    total += ms;
    const { file, name } = frameOf(node);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `  ${ms.toFixed(0).padStart(5)} ms  ${k}`);
  return [
    `main thread busy ${total.toFixed(0)} ms of ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms; by source file:`,
    ...top(byFile, 15),
    'by function:',
    ...top(byFunction, 20),
    'busy stretches over 40 ms (ms since the profile began), each with the functions it spent most time in (self and callees):',
    ...busyStretches(profile, (node) => frameOf(node).name),
  ];
}

/**
 * The profile cut into stretches of consecutive non-idle samples (gaps under 2 ms joined), and for each stretch over
 * 40 ms the functions on the stack longest, callees included: what one long task was doing, not just who burned time.
 */
function busyStretches(profile: Profile, describe: (node: Profile['nodes'][number]) => string): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of (n as { children?: number[] }).children ?? []) parent.set(c, n.id);
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const out: string[] = [];
  let t = 0;
  let stretch: { start: number; end: number; inclusive: Map<string, number> } | null = null;
  const flush = () => {
    if (stretch && stretch.end - stretch.start >= 40) {
      // React's and its scheduler's own frames are on the stack of every render: left out, the components show.
      const top = [...stretch.inclusive].filter(([k]) => !/^\((root|program|anonymous)\)$/.test(k) && !/node_modules\/(react-dom|scheduler)\//.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 8);
      out.push(`  ${stretch.start.toFixed(0).padStart(6)}  ${(stretch.end - stretch.start).toFixed(0)} ms: ${top.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(' | ')}`);
    }
    stretch = null;
  };
  for (let i = 0; i < samples.length; i++) {
    t += (deltas[i] ?? 0) / 1000;
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const node = byId.get(samples[i]!);
    if (!node || node.callFrame.functionName === '(idle)') {
      if (stretch && t - stretch.end > 2) flush();
      continue;
    }
    stretch ??= { start: t, end: t, inclusive: new Map() };
    stretch.end = t + ms;
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const name = describe(byId.get(id)!);
      if (seen.has(name)) continue;
      seen.add(name);
      stretch.inclusive.set(name, (stretch.inclusive.get(name) ?? 0) + ms);
    }
  }
  flush();
  return out;
}
