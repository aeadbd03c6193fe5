import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { memorySocketHolds, redisSocketHolds, type SocketHolds } from './socket-holds.ts';

// The `/media` socket holds of two app nodes in one Redis (the rate limits' client): a cap holds over both, and a
// killed node's holds lapse. Needs a real Redis (TEST_REDIS_URL, set by .ci/run); the in-memory store always runs.
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) console.log('SKIPPED: socket holds in Redis (TEST_REDIS_URL is not set; .ci/run sets it)');
const clients: Redis[] = [];
afterAll(() => {
  for (const c of clients) c.disconnect();
});

/** Keys of this run only: an earlier run's holds in the shared Redis cannot take part. */
const keyOf = (name: string) => `test-${crypto.randomUUID()}:${name}`;

async function sharedCap(nodeA: SocketHolds, nodeB: SocketHolds): Promise<void> {
  const [person, address] = [keyOf('person'), keyOf('address')];
  const caps = (n: number) => [
    { key: person, max: 3 },
    { key: address, max: n },
  ];
  expect(await nodeA.acquire('s1', caps(10))).toBe(-1);
  expect(await nodeB.acquire('s2', caps(10))).toBe(-1);
  expect(await nodeA.acquire('s3', caps(10))).toBe(-1);
  // The person's 3 are full over both nodes; the answer names the full key, and nothing was taken on the other.
  expect(await nodeB.acquire('s4', caps(10))).toBe(0);
  expect(await nodeA.acquire('s5', [{ key: address, max: 10 }])).toBe(-1);
  await nodeB.release('s2', [person, address]);
  expect(await nodeB.acquire('s4', caps(10))).toBe(-1);
  // The address: s1, s3, s4 and s5 hold it.
  expect(await nodeA.acquire('s6', [{ key: address, max: 4 }])).toBe(0);
}

describe('socket holds', () => {
  it('in memory: a cap over all holders, given back on release', async () => {
    const one = memorySocketHolds();
    await sharedCap(one, one);
  });

  it.skipIf(!redisUrl)('in Redis: one cap over two nodes, and a node\'s holds lapse unless refreshed', async () => {
    const [a, b] = [new Redis(redisUrl!), new Redis(redisUrl!)];
    clients.push(a, b);
    const [nodeA, nodeB] = [redisSocketHolds(a), redisSocketHolds(b)];
    await sharedCap(nodeA, nodeB);

    // A node killed with a hold: it lapses once its time is past (here: set back as if HOLD_TTL_MS went by).
    const key = keyOf('lapse');
    expect(await nodeA.acquire('dead', [{ key, max: 1 }])).toBe(-1);
    expect(await nodeB.acquire('other', [{ key, max: 1 }])).toBe(0);
    await a.zadd(`vm:rate:hold:${key}`, Date.now() - 1, 'dead');
    expect(await nodeB.acquire('other', [{ key, max: 1 }])).toBe(-1);
    // A refreshed hold does not lapse: its time moves on.
    await nodeB.refresh([{ id: 'other', keys: [key] }]);
    expect(Number(await a.zscore(`vm:rate:hold:${key}`, 'other'))).toBeGreaterThan(Date.now() + 60_000);
  });
});
