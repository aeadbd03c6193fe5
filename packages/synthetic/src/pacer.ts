/**
 * One clock for every synthetic participant of the process: each registers periodic work (a video frame every
 * 33 ms, an Opus packet every 20 ms) with a random phase, and the pacer runs what is due in order of due time.
 * RTP timestamps come from the due time, not from when the work ran, so a late run still sends a regular stream.
 * How late the work ran (the generator's own lag) is recorded: a generator that could not keep up says so, for a
 * stalled generator looks like a quality drop to Janus (it drops to a lower layer after 250 ms without packets).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface PacedTask {
  periodMs: number;
  /** Runs once per period; `dueMs` is the scheduled time on the pacer's clock (ms since its start). */
  run(dueMs: number): Promise<void> | void;
}

interface Entry {
  task: PacedTask;
  next: number;
  stopped: boolean;
}

/**
 * A run counts as saturated when work ran this late at its 99th percentile (more than a video frame's time), or once
 * later than STALL_MS.
 */
export const SATURATED_LATE_MS = 40;
const STALL_MS = 250;

export interface PacerReport {
  /** How late periodic work ran, ms: 50th, 99th percentile and the worst. */
  lateMs: { p50: number; p99: number; max: number };
  /** Event-loop delay (perf_hooks), ms. */
  loopDelayMs: { p50: number; p99: number; max: number };
  runs: number;
  /** Runs later than 250 ms: Janus drops a publisher to a lower layer after that long without packets of it. */
  stalls: number;
  /** The generator itself could not keep its clock: its figures are the generator's, not the product's. */
  saturated: boolean;
}

export class Pacer {
  private readonly entries: Entry[] = [];
  private readonly started = performance.now();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private late: number[] = [];
  private readonly loop = monitorEventLoopDelay({ resolution: 10 });
  private runs = 0;
  private stalls = 0;

  constructor() {
    this.loop.enable();
  }

  now(): number {
    return performance.now() - this.started;
  }

  /** Adds periodic work, first due after a random part of its period (participants do not all send at once). */
  add(task: PacedTask): () => void {
    const entry: Entry = { task, next: this.now() + Math.random() * task.periodMs, stopped: false };
    this.entries.push(entry);
    this.schedule();
    return () => {
      entry.stopped = true;
      this.entries.splice(this.entries.indexOf(entry), 1);
    };
  }

  private schedule(): void {
    if (this.running || this.timer) return;
    const next = Math.min(...this.entries.map((e) => e.next));
    if (!Number.isFinite(next)) return;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, next - this.now()));
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.running = true;
    try {
      for (;;) {
        const now = this.now();
        const due = this.entries.filter((e) => e.next <= now).sort((a, b) => a.next - b.next);
        if (due.length === 0) break;
        // Everything due is started in order of due time and then awaited together: each run waits on WebCrypto's
        // thread pool (a frame sealed per layer), and awaiting the runs one after another made the last of a round
        // as late as all the others' sealing together (a p99 of 30-45 ms for sixteen publishers at a third of a core).
        // A task never overlaps itself: the next round starts once this one has finished.
        const running: Promise<void>[] = [];
        for (const e of due) {
          if (e.stopped) continue;
          this.record(this.now() - e.next);
          const at = e.next;
          // Work that fell more than a period behind skips the missed runs rather than bursting them out.
          e.next += e.task.periodMs * Math.max(1, Math.floor((this.now() - at) / e.task.periodMs));
          const run = e.task.run(at);
          if (run) running.push(run);
        }
        await Promise.all(running);
      }
    } finally {
      this.running = false;
      this.schedule();
    }
  }

  private record(lateMs: number): void {
    this.runs += 1;
    if (lateMs > STALL_MS) this.stalls += 1;
    // Keep a bounded sample: every run for the first 20k, then one in ten.
    if (this.late.length < 20_000 || this.runs % 10 === 0) this.late.push(lateMs);
    if (this.late.length > 40_000) this.late = this.late.filter((_, i) => i % 2 === 0);
  }

  /** Starts the figures afresh (a test's measured window), the work going on as it was. */
  resetFigures(): void {
    this.late = [];
    this.runs = 0;
    this.stalls = 0;
    this.loop.reset();
  }

  report(): PacerReport {
    const sorted = [...this.late].sort((a, b) => a - b);
    const pick = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const lateMs = { p50: round(pick(0.5)), p99: round(pick(0.99)), max: round(sorted.at(-1) ?? 0) };
    return {
      lateMs,
      loopDelayMs: { p50: ms(this.loop.percentile(50)), p99: ms(this.loop.percentile(99)), max: ms(this.loop.max) },
      runs: this.runs,
      stalls: this.stalls,
      saturated: lateMs.p99 > SATURATED_LATE_MS || this.stalls > 0,
    };
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.entries.splice(0);
    this.loop.disable();
  }
}

const round = (x: number) => Math.round(x * 10) / 10;
