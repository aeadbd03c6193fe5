import type { Redis } from 'ioredis';

/**
 * Counts of long-lived things (the `/media` sockets) per key, shared by every app node: in the Redis the rate limits
 * keep their counters in (same client, namespace `vm:rate:hold:`), or in this process's memory without REDIS_URL.
 * Each key is a sorted set of holder ids scored by when the hold lapses: a node refreshes its holds while they last
 * (refresh), so those of a node that was killed lapse within HOLD_TTL_MS instead of counting for ever.
 */
export const HOLD_TTL_MS = 90_000;
export const HOLD_REFRESH_MS = 30_000;

export interface HoldRequest {
  key: string;
  max: number;
}

export interface SocketHolds {
  /** Takes a hold on every key at once, or on none: answers the index of the first key that is full, or -1. */
  acquire(id: string, keys: HoldRequest[]): Promise<number>;
  release(id: string, keys: string[]): Promise<void>;
  /** Keeps the holds of ids still alive from lapsing. */
  refresh(holds: { id: string; keys: string[] }[]): Promise<void>;
}

const PREFIX = 'vm:rate:hold:';

// Atomic across nodes: drop lapsed holds, check every key, then add to all. KEYS: the keys; ARGV: id, now,
// lapse time, then each key's max.
const ACQUIRE = `
for i, k in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', k, '-inf', ARGV[2])
  if not redis.call('ZSCORE', k, ARGV[1]) and redis.call('ZCARD', k) >= tonumber(ARGV[3 + i]) then return i end
end
for _, k in ipairs(KEYS) do
  redis.call('ZADD', k, ARGV[3], ARGV[1])
  redis.call('PEXPIREAT', k, ARGV[3])
end
return 0`;

export function redisSocketHolds(redis: Redis): SocketHolds {
  return {
    async acquire(id, keys) {
      const now = Date.now();
      const full = (await redis.eval(ACQUIRE, keys.length, ...keys.map((k) => PREFIX + k.key), id, now, now + HOLD_TTL_MS, ...keys.map((k) => k.max))) as number;
      return full - 1;
    },
    async release(id, keys) {
      const multi = redis.multi();
      for (const k of keys) multi.zrem(PREFIX + k, id);
      await multi.exec();
    },
    async refresh(holds) {
      if (!holds.length) return;
      const lapse = Date.now() + HOLD_TTL_MS;
      const multi = redis.multi();
      for (const h of holds) {
        for (const k of h.keys) {
          multi.zadd(PREFIX + k, 'XX', lapse, h.id);
          multi.pexpireat(PREFIX + k, lapse);
        }
      }
      await multi.exec();
    },
  };
}

/** One process: the same rules in memory (nothing lapses: a process that dies takes its holds with it). */
export function memorySocketHolds(): SocketHolds {
  const held = new Map<string, Set<string>>();
  return {
    async acquire(id, keys) {
      const full = keys.findIndex((k) => !held.get(k.key)?.has(id) && (held.get(k.key)?.size ?? 0) >= k.max);
      if (full >= 0) return full;
      for (const k of keys) held.set(k.key, (held.get(k.key) ?? new Set()).add(id));
      return -1;
    },
    async release(id, keys) {
      for (const k of keys) {
        const ids = held.get(k);
        ids?.delete(id);
        if (ids && !ids.size) held.delete(k);
      }
    },
    async refresh() {},
  };
}
