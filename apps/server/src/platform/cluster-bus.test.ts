import { describe, expect, it } from 'vitest';
import { clusterKey, MESSAGE_MAX_AGE_MS, signMessage, verifyMessage } from './cluster-bus.ts';

const key = clusterKey('s'.repeat(32), Buffer.alloc(32));
const now = 1_800_000_000_000;
const raw = (fields: Record<string, unknown>) => JSON.stringify(fields);
const signed = (topic: string, message: string, at = now, from = 'node-a', k = key) => raw({ from, at, message, mac: signMessage(k, topic, from, at, message) });

describe('cluster bus signatures', () => {
  it('hands on a message signed for its topic by another node; its own comes back as null', () => {
    expect(verifyMessage(key, 'meeting-events', signed('meeting-events', '{"x":1}'), 'node-b', now)).toEqual({ message: '{"x":1}' });
    expect(verifyMessage(key, 'meeting-events', signed('meeting-events', '{"x":1}'), 'node-a', now)).toBeNull();
  });

  it('drops the unsigned, the forged, another topic\'s, another key\'s and the stale, each with its reason', () => {
    expect(verifyMessage(key, 't', 'nope', 'n', now)).toEqual({ drop: 'malformed' });
    expect(verifyMessage(key, 't', raw({ from: 'x', message: 'm' }), 'n', now)).toEqual({ drop: 'unsigned' });
    expect(verifyMessage(key, 't', raw({ from: 'x', at: now, message: 'm', mac: 'x' }), 'n', now)).toEqual({ drop: 'bad-signature' });
    expect(verifyMessage(key, 'sessions-ended', signed('meeting-events', 'm'), 'n', now)).toEqual({ drop: 'bad-signature' });
    expect(verifyMessage(key, 't', signed('t', 'm', now, 'node-a', clusterKey('o'.repeat(32), Buffer.alloc(32))), 'n', now)).toEqual({ drop: 'bad-signature' });
    expect(verifyMessage(key, 't', signed('t', 'm', now - MESSAGE_MAX_AGE_MS - 1), 'n', now)).toEqual({ drop: 'stale' });
    expect(verifyMessage(key, 't', signed('t', 'm', now + MESSAGE_MAX_AGE_MS + 1), 'n', now)).toEqual({ drop: 'stale' });
  });

  it('derives the key from CLUSTER_SECRET when set, else from the PIN key every node shares', () => {
    expect(clusterKey('s'.repeat(32), Buffer.alloc(32, 1)).equals(clusterKey('s'.repeat(32), Buffer.alloc(32, 2)))).toBe(true);
    expect(clusterKey(null, Buffer.alloc(32, 1)).equals(clusterKey(null, Buffer.alloc(32, 2)))).toBe(false);
  });
});
