import { describe, expect, it } from 'vitest';
import { EarlyRequest } from './early-request.ts';

describe('EarlyRequest', () => {
  it('hands the early answer once, for its own key and while fresh; otherwise asks again', async () => {
    let clock = 0;
    let asked = 0;
    const ask = (v: string) => () => {
      asked += 1;
      return Promise.resolve(v);
    };
    const early = new EarlyRequest<string>(30_000, () => clock);

    early.start('m1', ask('early'));
    expect(await early.take('m1', ask('late'))).toBe('early');
    expect(await early.take('m1', ask('again'))).toBe('again');

    early.start('m1', ask('early'));
    expect(await early.take('m2', ask('other meeting'))).toBe('other meeting');

    early.start('m1', ask('early'));
    clock += 30_000;
    expect(await early.take('m1', ask('stale'))).toBe('stale');
    expect(asked).toBe(6);
  });

  it('is not asked twice when started again for the same key while its answer is fresh', async () => {
    let clock = 0;
    let asked = 0;
    const ask = (v: string) => () => {
      asked += 1;
      return Promise.resolve(v);
    };
    const early = new EarlyRequest<string>(30_000, () => clock);
    early.start('m1', ask('first'));
    early.start('m1', ask('second'));
    expect(await early.take('m1', ask('late'))).toBe('first');
    expect(asked).toBe(1);

    early.start('m1', ask('first'));
    clock += 30_000;
    early.start('m1', ask('after it went stale'));
    early.start('m2', ask('another meeting'));
    expect(await early.take('m2', ask('late'))).toBe('another meeting');
    expect(asked).toBe(4);
  });

  it('gives an early failure to whoever takes it, and one never taken is no unhandled rejection', async () => {
    const early = new EarlyRequest<string>(30_000);
    early.start('m1', () => Promise.reject(new Error('403')));
    await expect(early.take('m1', () => Promise.resolve('late'))).rejects.toThrow('403');
    early.start('m1', () => Promise.reject(new Error('not taken')));
    await new Promise((r) => setTimeout(r, 10));
  });
});
