import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { clockTicksPerSecond } from './process-figures.ts';

/**
 * Where a browser's CPU goes, thread by thread, without a profiler: Chromium names its processes (`--type=renderer`,
 * `gpu-process`, `utility` with its service) and its threads (CrRendererMain, WebRTC_Worker, DedicatedWorker
 * thread, ...), and /proc keeps each thread's CPU time. Two snapshots of every process under the browsers' main
 * processes, a window apart, give the CPU per "process type / thread name" over that window.
 */

/** Thread CPU seconds so far, keyed by process type and thread name, summed over the processes given. */
export type ThreadCpu = Map<string, number>;

/** A process and all it started, and all they started (the bench: its browsers with their renderers, GPU, zygotes). */
export function processTree(rootPids: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = statFields(`/proc/${entry}/stat`)?.[1];
    if (ppid === undefined) continue;
    const list = children.get(Number(ppid)) ?? [];
    list.push(Number(entry));
    children.set(Number(ppid), list);
  }
  const out: number[] = [];
  const queue = [...rootPids];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The Chromium processes among these (a browser's main process, its zygotes, renderers, GPU and utilities). */
export function chromiumProcesses(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      // By the executable: Chromium starts its children with argv[0] /proc/self/exe.
      return /chromium$/.test(fs.readlinkSync(`/proc/${pid}/exe`));
    } catch {
      return false;
    }
  });
}

/** Chromium's name for a process: its `--type` (and a utility's service), or "browser" for the main one. */
export function processKind(cmdline: string[]): string {
  const type = cmdline.find((a) => a.startsWith('--type='))?.slice(7);
  if (!type) return 'browser';
  if (type === 'utility') {
    const service = cmdline.find((a) => a.startsWith('--utility-sub-type='))?.slice(19) ?? '';
    return `utility:${service.split('.').slice(-1)[0] || '?'}`;
  }
  return type;
}

/** A snapshot of every thread's CPU seconds in the processes given, keyed "process kind / thread name". */
export function threadCpu(pids: number[]): ThreadCpu {
  const out: ThreadCpu = new Map();
  for (const pid of pids) {
    let kind: string;
    try {
      // Chromium rewrites its children's command lines into one space-separated title.
      kind = processKind(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/));
    } catch {
      continue; // the process ended meanwhile
    }
    for (const [name, seconds] of processThreads(pid) ?? []) {
      const key = `${kind} / ${name}`;
      out.set(key, (out.get(key) ?? 0) + seconds);
    }
  }
  return out;
}

/**
 * One process's CPU seconds so far by thread name, instance numbers dropped (ThreadPoolForegroundWorker 3), summed
 * over threads of one name; its first thread (tid = pid) named `mainName` when given. Null when the process is gone.
 */
function processThreads(pid: number, mainName?: string): Map<string, number> | null {
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const ticks = clockTicksPerSecond();
  const out = new Map<string, number>();
  for (const tid of tids) {
    const path = `/proc/${pid}/task/${tid}/stat`;
    const fields = statFields(path);
    if (!fields) continue;
    const name = mainName && tid === String(pid) ? mainName : threadName(path).replace(/\d+$/, '').trim();
    out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / ticks);
  }
  return out;
}

/** Percent of one core per key over a window between two snapshots, largest first. */
export function cpuBetween(before: ThreadCpu, after: ThreadCpu, seconds: number): [string, number][] {
  const rows: [string, number][] = [];
  for (const [key, end] of after) rows.push([key, ((end - (before.get(key) ?? 0)) / seconds) * 100]);
  return rows.filter(([, pct]) => pct > 0).sort((a, b) => b[1] - a[1]);
}

/** One line per process kind and its busiest threads: "renderer 61.2 % (CrRendererMain 20.1, ...)". */
export function describeCpu(rows: [string, number][], threadsPerKind = 5): string[] {
  const byKind = new Map<string, [string, number][]>();
  for (const [key, pct] of rows) {
    const [kind, thread] = key.split(' / ') as [string, string];
    byKind.set(kind, [...(byKind.get(kind) ?? []), [thread, pct]]);
  }
  return [...byKind.entries()]
    .map(([kind, threads]) => ({ kind, threads, total: threads.reduce((a, [, p]) => a + p, 0) }))
    .sort((a, b) => b.total - a.total)
    .map(({ kind, threads, total }) => `${kind} ${total.toFixed(1)} % (${threads.slice(0, threadsPerKind).map(([t, p]) => `${t} ${p.toFixed(1)}`).join(', ')})`);
}

/** The fields after the command name of a /proc stat file (the name may hold spaces and parentheses). */
function statFields(path: string): string[] | null {
  try {
    const stat = fs.readFileSync(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function threadName(statPath: string): string {
  try {
    const stat = fs.readFileSync(statPath, 'utf8');
    return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  } catch {
    return '?';
  }
}

/** CPU seconds so far of one browser's renderer processes, by pid and thread name (the main thread as 'main'). */
export type RendererCpu = Map<number, Map<string, number>>;

/** The renderers of `browser` (its own account of its processes, SystemInfo.getProcessInfo) and their CPU so far. */
export async function rendererCpu(browser: Browser): Promise<RendererCpu> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  await cdp.detach().catch(() => {});
  const out: RendererCpu = new Map();
  for (const { type, id } of processInfo) {
    // Chromium does not rename a renderer's main thread: it is told by its tid.
    const threads = type === 'renderer' ? processThreads(id, 'main') : null;
    if (threads) out.set(id, threads);
  }
  return out;
}

/**
 * ms of CPU the renderers spent between two snapshots (a renderer made meanwhile counts from zero; one gone is left
 * out): what a page's join cost its main thread, its whole renderer and each of its threads, however long it waited
 * for a core.
 */
export function rendererCpuBetween(before: RendererCpu, after: RendererCpu): { mainMs: number; allMs: number; threadMs: Record<string, number> } {
  const threadMs: Record<string, number> = {};
  for (const [pid, end] of after) {
    for (const [name, seconds] of end) threadMs[name] = (threadMs[name] ?? 0) + (seconds - (before.get(pid)?.get(name) ?? 0)) * 1000;
  }
  return { mainMs: threadMs.main ?? 0, allMs: Object.values(threadMs).reduce((a, b) => a + b, 0), threadMs };
}

/** The threads' ms summed over several joins and divided by their number, busiest first: "main 155, DedicatedWorker 40". */
export function meanThreadMs(joins: { threadMs: Record<string, number> }[], top = 8): string {
  const sum: Record<string, number> = {};
  for (const j of joins) for (const [name, ms] of Object.entries(j.threadMs)) sum[name] = (sum[name] ?? 0) + ms;
  return Object.entries(sum)
    .map(([name, ms]) => [name, ms / Math.max(1, joins.length)] as const)
    .filter(([, ms]) => ms >= 1)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
    .join(', ');
}
