import { describe, expect, it } from 'vitest';
import { LatestRequest } from './latest-request.ts';

/** A request whose answer the test releases by hand, in any order. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('LatestRequest', () => {
  it('keeps the newest answer when an older one arrives after it, and aborts the older request', async () => {
    const latest = new LatestRequest();
    const shown: string[] = [];
    const run = (answer: Promise<string>) => {
      const r = latest.start();
      void answer.then((v) => r.isCurrent() && shown.push(v));
      return r;
    };
    const week47 = deferred<string>();
    const week48 = deferred<string>();
    const first = run(week47.promise);
    const second = run(week48.promise);
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(false);
    week48.resolve('vecka 48');
    await week48.promise;
    week47.resolve('vecka 47');
    await week47.promise;
    await Promise.resolve();
    expect(shown).toEqual(['vecka 48']);
  });

  it('drops every answer after cancel, and counts the next request again', () => {
    const latest = new LatestRequest();
    const r = latest.start();
    latest.cancel();
    expect([r.isCurrent(), r.signal.aborted]).toEqual([false, true]);
    const next = latest.start();
    expect(next.isCurrent()).toBe(true);
  });
});
