import { describe, expect, it } from 'vitest';
import { JoinIntent } from './join-intent.ts';

describe('JoinIntent', () => {
  it('runs what waits once the intent is shown, once, and what comes later at once', () => {
    const intent = new JoinIntent();
    const log: string[] = [];
    intent.whenShown(() => log.push('a'));
    intent.whenShown(() => log.push('b'));
    expect(log).toEqual([]);
    intent.shown();
    expect(log).toEqual(['a', 'b']);
    intent.shown();
    expect(log).toEqual(['a', 'b']);
    intent.whenShown(() => log.push('c'));
    expect(log).toEqual(['a', 'b', 'c']);
  });
});
