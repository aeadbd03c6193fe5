import { describe, expect, it } from 'vitest';
import { afterLoadWhenIdle, type IdleEnv } from './after-load-idle.ts';

/** A page whose load, timers and idle periods the test drives by hand, recording what waits on what. */
function fakePage(opts: { loaded: boolean; idle: boolean }) {
  const log: string[] = [];
  const pending = { load: [] as (() => void)[], timers: [] as { run: () => void; ms: number }[], idle: [] as { run: () => void; timeout: number }[] };
  const env: IdleEnv = {
    loaded: () => opts.loaded,
    onLoad: (run) => void pending.load.push(run),
    setTimeout: (run, ms) => void pending.timers.push({ run, ms }),
    requestIdle: opts.idle ? (run, o) => void pending.idle.push({ run, timeout: o.timeout }) : null,
  };
  const flush = (list: { run: () => void }[] | (() => void)[]) => list.splice(0).forEach((x) => (typeof x === 'function' ? x() : x.run()));
  return { env, log, pending, flush };
}

const options = { delayMs: 1_500, idleTimeoutMs: 3_000 };

describe('afterLoadWhenIdle', () => {
  it('waits for the load event, then the delay, then an idle period', () => {
    const page = fakePage({ loaded: false, idle: true });
    afterLoadWhenIdle(() => page.log.push('ran'), options, page.env);
    expect(page.pending.timers).toHaveLength(0);
    page.flush(page.pending.load);
    expect(page.pending.timers.map((t) => t.ms)).toEqual([1_500]);
    page.flush(page.pending.timers);
    expect(page.log).toEqual([]);
    expect(page.pending.idle.map((i) => i.timeout)).toEqual([3_000]);
    page.flush(page.pending.idle);
    expect(page.log).toEqual(['ran']);
  });

  it('on a page already loaded starts with the delay', () => {
    const page = fakePage({ loaded: true, idle: true });
    afterLoadWhenIdle(() => page.log.push('ran'), options, page.env);
    expect(page.pending.load).toHaveLength(0);
    expect(page.pending.timers).toHaveLength(1);
  });

  it('without requestIdleCallback runs right after the delay', () => {
    const page = fakePage({ loaded: true, idle: false });
    afterLoadWhenIdle(() => page.log.push('ran'), options, page.env);
    page.flush(page.pending.timers);
    expect(page.log).toEqual(['ran']);
  });
});
