/**
 * Where the synthetic-participant benches put their processes on the 2-core machine: Janus and the app on core 0, the
 * generator (the bench process) on core 1, so the generator's load does not land on the figures it measures.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** Pins a process and all its threads to the given cores; false when taskset is missing or refuses. */
export function pin(pid: number, cores: string): boolean {
  return spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' }).status === 0;
}

/**
 * Gives every thread of a process (and the threads it makes from now on, which inherit it) a higher scheduling
 * priority: the synthetic publishers stand for other people's machines, and on two shared cores the joiner's
 * Chromium would otherwise take the cores from them in the middle of a join and stall their clock. False when not
 * allowed (not root).
 */
export function prioritise(pid: number, niceness = -10): boolean {
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) os.setPriority(Number(tid), niceness);
    return true;
  } catch {
    return false;
  }
}
