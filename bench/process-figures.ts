import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** Clock ticks per second of /proc/<pid>/stat's CPU times. */
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;
export const clockTicksPerSecond = (): number => CLK_TCK;

/** CPU seconds a process has used so far (user + system), from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: the fields start after its last ')'.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;
}

/** Percent of one core each process used over the next `ms` milliseconds (100 = one core busy). */
export async function cpuPercentOver(pids: number[], ms: number): Promise<number[]> {
  const before = pids.map(cpuSeconds);
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, ms));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return pids.map((pid, i) => ((cpuSeconds(pid) - before[i]!) / seconds) * 100);
}

/** The embedded Janus: the server's descendant named janus. */
export function findJanus(rootPid: number): number | null {
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift()!;
    const children: number[] = [];
    try {
      for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
        children.push(...fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
      }
    } catch {
      continue;
    }
    for (const c of children) {
      try {
        if (fs.readFileSync(`/proc/${c}/comm`, 'utf8').trim().startsWith('janus')) return c;
      } catch {
        /* gone */
      }
      queue.push(c);
    }
  }
  return null;
}

export const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The value below which `p` (0–1) of the samples lie, nearest rank (p95 of 10 samples is the largest). */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** This machine, for the line printed with every figure: cores and CPU model. */
export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${os.hostname()}`;
}

export const loadAverage = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');
