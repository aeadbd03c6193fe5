import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache.ts';

describe('AnswerCache', () => {
  const counting = () => {
    let calls = 0;
    return { ask: (v: string) => () => (calls++, Promise.resolve(v)), calls: () => calls };
  };

  it('reuses an answer for its lifetime, then asks again', async () => {
    let now = 0;
    const cache = new AnswerCache<string>(5000, 10, () => now);
    const c = counting();
    expect(await cache.get('k', c.ask('a'))).toBe('a');
    now = 4999;
    expect(await cache.get('k', c.ask('b'))).toBe('a');
    now = 5000;
    expect(await cache.get('k', c.ask('c'))).toBe('c');
    expect(c.calls()).toBe(2);
  });

  it('shares an answer still on its way, and forgets a failed one at once', async () => {
    const cache = new AnswerCache<string>(60_000, 10);
    let release!: (v: string) => void;
    let calls = 0;
    const slow = () => (calls++, new Promise<string>((r) => (release = r)));
    const first = cache.get('k', slow);
    const second = cache.get('k', slow);
    release('x');
    expect([await first, await second]).toEqual(['x', 'x']);
    expect(calls).toBe(1);

    await expect(cache.get('down', () => Promise.reject(new Error('unreachable')))).rejects.toThrow('unreachable');
    expect(await cache.get('down', () => Promise.resolve('back'))).toBe('back');
  });

  it('keeps at most maxEntries, dropping the oldest', async () => {
    const cache = new AnswerCache<string>(60_000, 3);
    for (const k of ['a', 'b', 'c', 'd']) await cache.get(k, () => Promise.resolve(k));
    expect(cache.size).toBe(3);
    expect(await cache.get('a', () => Promise.resolve('asked again'))).toBe('asked again');
    expect(await cache.get('d', () => Promise.resolve('asked again'))).toBe('d');
  });

  it('keeps an answer set from outside for the same lifetime, newest last in line', async () => {
    let now = 0;
    const cache = new AnswerCache<string>(1000, 2, () => now);
    await cache.get('a', () => Promise.resolve('a'));
    cache.set('b', 'learnt');
    expect(await cache.get('b', () => Promise.resolve('asked'))).toBe('learnt');
    cache.set('a', 'renewed');
    cache.set('c', 'c');
    expect(await cache.get('a', () => Promise.resolve('asked'))).toBe('renewed');
    expect(await cache.get('b', () => Promise.resolve('asked'))).toBe('asked');
    now = 1000;
    expect(await cache.get('c', () => Promise.resolve('asked'))).toBe('asked');
  });

  it('asks every time with a lifetime of 0', async () => {
    const cache = new AnswerCache<number>(0, 10);
    let n = 0;
    await cache.get('k', () => Promise.resolve(++n));
    expect(await cache.get('k', () => Promise.resolve(++n))).toBe(2);
    expect(cache.size).toBe(0);
  });
});
