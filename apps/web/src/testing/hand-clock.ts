/**
 * Timers and a clock moved by hand, for the unit tests of rules that wait (ICE recovery, socket health checks):
 * `advance(ms)` runs what falls due in order; `settle(ms)` does the same and lets awaited promises in between run;
 * `stall(ms)` is a page whose thread was busy: the clock moves and nothing runs, what fell due runs late after.
 */
export function handClock() {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  const set = (fn: () => void, ms: number): unknown => {
    const id = next++;
    due.set(id, { at: now + ms, fn });
    return id;
  };
  const clear = (id: unknown) => void due.delete(id as number);
  const nextDue = (end: number) => [...due.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
  const advance = (ms: number) => {
    const end = now + ms;
    for (let first = nextDue(end); first; first = nextDue(end)) {
      due.delete(first[0]);
      now = Math.max(now, first[1].at);
      first[1].fn();
    }
    now = end;
  };
  const flush = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  const settle = async (ms: number) => {
    const end = now + ms;
    for (;;) {
      await flush();
      const first = nextDue(end);
      if (!first) break;
      due.delete(first[0]);
      now = Math.max(now, first[1].at);
      first[1].fn();
    }
    now = end;
    await flush();
  };
  const stall = (ms: number) => {
    now += ms;
  };
  return { timers: { set, clear }, now: () => now, advance, settle, stall };
}
