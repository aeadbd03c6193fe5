import { describe, expect, it } from 'vitest';
import { UNSEALED, type ClusterBus, type ClusterTopic } from './cluster-bus.ts';
import type { Db } from './db.ts';
import { SessionStore } from './session.ts';

/** Two processes' buses joined in memory: what one publishes, the other hears (as through Redis pub/sub). */
function busPair(): [ClusterBus, ClusterBus] {
  const handlers: Map<ClusterTopic, ((m: string) => void)[]>[] = [new Map(), new Map()];
  const bus = (me: number): ClusterBus => ({
    async publish(topic, message) {
      for (const h of handlers[1 - me]!.get(topic) ?? []) h(message);
    },
    on(topic, handler) {
      handlers[me]!.set(topic, [...(handlers[me]!.get(topic) ?? []), handler]);
    },
    async ready() {},
    async close() {},
    dropped: () => ({ malformed: 0, unsigned: 0, 'bad-signature': 0, stale: 0 }),
    ...UNSEALED,
  });
  return [bus(0), bus(1)];
}

describe('SessionStore.onEnded', () => {
  it('tells the listeners of another process of a logout heard on the cluster bus, by the token hash', async () => {
    const [here, there] = busPair();
    // The database is not read on this path (the store of the other process only forgets and tells).
    const other = new SessionStore(null as unknown as Db, 60, () => new Date(), 5000, there);
    const heard: string[] = [];
    other.onEnded((hash) => heard.push(hash));
    other.onEnded(() => {
      throw new Error('a failing listener does not keep the others from hearing it');
    });
    other.onEnded((hash) => heard.push(`second:${hash}`));
    await here.publish('sessions-ended', 'abc123');
    expect(heard).toEqual(['abc123', 'second:abc123']);
  });
});
