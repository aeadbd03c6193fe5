import { describe, expect, it } from 'vitest';
import { EarlyRequest } from './early-request.ts';

/** An EarlyRequest on a clock the test moves, and requests that count how often they were made. */
function counted() {
  const t = { clock: 0, asked: 0 };
  const ask = (v: string) => () => {
    t.asked += 1;
    return Promise.resolve(v);
  };
  return { t, ask, early: new EarlyRequest<string>(30_000, () => t.clock) };
}

describe('EarlyRequest', () => {
  it('hands the early answer once, for its own key and while fresh; otherwise asks again', async () => {
    const { t, ask, early } = counted();

    early.start('m1', ask('early'));
    expect(await early.take('m1', ask('late'))).toBe('early');
    expect(await early.take('m1', ask('again'))).toBe('again');

    early.start('m1', ask('early'));
    expect(await early.take('m2', ask('other meeting'))).toBe('other meeting');

    early.start('m1', ask('early'));
    t.clock += 30_000;
    expect(await early.take('m1', ask('stale'))).toBe('stale');
    expect(t.asked).toBe(6);
  });

  it('is not asked twice when started again for the same key while its answer is fresh', async () => {
    const { t, ask, early } = counted();
    early.start('m1', ask('first'));
    early.start('m1', ask('second'));
    expect(await early.take('m1', ask('late'))).toBe('first');
    expect(t.asked).toBe(1);

    early.start('m1', ask('first'));
    t.clock += 30_000;
    early.start('m1', ask('after it went stale'));
    early.start('m2', ask('another meeting'));
    expect(await early.take('m2', ask('late'))).toBe('another meeting');
    expect(t.asked).toBe(4);
  });

  it('asks anew on restart even while a fresh answer waits, and a start after it keeps the restarted one', async () => {
    const { t, ask, early } = counted();
    early.start('m1', ask('without consent'));
    early.restart('m1', ask('with consent'));
    early.start('m1', ask('the route loader'));
    expect(await early.take('m1', ask('late'))).toBe('with consent');
    expect(t.asked).toBe(2);
  });

  it('gives an early failure to whoever takes it, and one never taken is no unhandled rejection', async () => {
    const early = new EarlyRequest<string>(30_000);
    early.start('m1', () => Promise.reject(new Error('403')));
    await expect(early.take('m1', () => Promise.resolve('late'))).rejects.toThrow('403');
    early.start('m1', () => Promise.reject(new Error('not taken')));
    await new Promise((r) => setTimeout(r, 10));
  });

  it('drops the waiting answer only for its meeting, and with an answer named, only if that one still waits', async () => {
    const { t, ask, early } = counted();
    early.start('m1', ask('first'));
    early.drop('m2');
    expect(early.fresh('m1')).toBe(true);
    const stale = Promise.resolve('an older one');
    early.drop('m1', stale);
    expect(early.fresh('m1')).toBe(true);
    early.drop('m1');
    expect(early.fresh('m1')).toBe(false);
    expect(await early.take('m1', ask('asked again'))).toBe('asked again');
    expect(t.asked).toBe(2);
  });

  it('hands an answer that has arrived without a promise (once), and one still on its way or failed not at all', async () => {
    const early = new EarlyRequest<string>(30_000);
    let answer!: (v: string) => void;
    early.start('m1', () => new Promise<string>((resolve) => (answer = resolve)));
    expect(early.takeArrived('m1')).toBeUndefined();
    answer('token');
    await Promise.resolve();
    expect(early.takeArrived('m2')).toBeUndefined();
    expect(early.takeArrived('m1')).toBe('token');
    expect(early.takeArrived('m1')).toBeUndefined();
    expect(early.fresh('m1')).toBe(false);

    early.start('m1', () => Promise.reject(new Error('403')));
    await new Promise((r) => setTimeout(r, 0));
    expect(early.takeArrived('m1')).toBeUndefined();
    // The failure stays for the one who takes the promise (the meeting screen shows it).
    await expect(early.take('m1', () => Promise.resolve('late'))).rejects.toThrow('403');
  });
});
