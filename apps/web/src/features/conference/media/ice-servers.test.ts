import { describe, expect, it } from 'vitest';
import { applyIceServers, relaysThroughTurn, restartRelayed } from './ice-servers.ts';

/** Just the part of RTCPeerConnection the rule touches, with what it was configured with. */
function peer(state: RTCPeerConnectionState = 'connected') {
  let config: RTCConfiguration = { iceServers: [{ urls: 'turn:t.example', username: '100:p-1', credential: 'old' }], bundlePolicy: 'max-bundle' };
  return {
    connectionState: state,
    getConfiguration: () => config,
    setConfiguration(c: RTCConfiguration) {
      if (this.connectionState === 'closed') throw new Error('InvalidStateError');
      config = c;
    },
    get config() {
      return config;
    },
  };
}

describe('renewed ICE servers', () => {
  it('replace the list janus.js holds in place and reach every open peer connection once, other settings kept', () => {
    const held: RTCIceServer[] = [{ urls: 'turn:t.example', username: '100:p-1', credential: 'old' }];
    const fresh: RTCIceServer[] = [{ urls: 'turn:t.example', username: '200:p-1', credential: 'new' }];
    const [a, b, closed] = [peer(), peer('connecting'), peer('closed')];
    const pcs = [a, b, a, closed, null, undefined] as unknown as RTCPeerConnection[];
    expect(applyIceServers(held, fresh, pcs)).toBe(2);
    expect(held).toEqual(fresh);
    expect(a.config).toEqual({ iceServers: fresh, bundlePolicy: 'max-bundle' });
    expect(b.config.iceServers).toEqual(fresh);
    expect(closed.config.iceServers?.[0]?.username).toBe('100:p-1');
  });
});

/** getStats() records of a connection whose selected pair's local candidate is of `type` (none selected: null). */
const statsWith = (type: 'host' | 'srflx' | 'relay' | null) => [
  { id: 'T1', type: 'transport', ...(type ? { selectedCandidatePairId: 'CP1' } : {}) },
  { id: 'CP1', type: 'candidate-pair', localCandidateId: 'L1' },
  { id: 'CP2', type: 'candidate-pair', localCandidateId: 'L2' },
  { id: 'L1', type: 'local-candidate', candidateType: type ?? 'host' },
  { id: 'L2', type: 'local-candidate', candidateType: 'relay' },
];

describe('relayed connections at a renewal', () => {
  it('are those whose selected pair is local-relayed, not those that merely have a relay candidate', () => {
    expect(relaysThroughTurn(statsWith('relay'))).toBe(true);
    expect(relaysThroughTurn(statsWith('host'))).toBe(false);
    expect(relaysThroughTurn(statsWith('srflx'))).toBe(false);
    expect(relaysThroughTurn(statsWith(null))).toBe(false);
    expect(relaysThroughTurn([])).toBe(false);
  });

  it('restart ICE, each once; direct, closed and absent connections are left alone', async () => {
    const conn = (type: 'host' | 'relay', state: RTCPeerConnectionState = 'connected') => {
      const c = {
        restarts: 0,
        pc: { connectionState: state, getStats: async () => new Map(statsWith(type).map((r) => [r.id, r])) } as unknown as RTCPeerConnection,
        recovery: { restartNow: () => (c.restarts += 1) },
      };
      return c;
    };
    const [relayed, direct, closed] = [conn('relay'), conn('host'), conn('relay', 'closed')];
    const none = { pc: null, recovery: { restartNow: () => expect.unreachable() } };
    expect(await restartRelayed([relayed, direct, closed, none])).toBe(1);
    expect([relayed.restarts, direct.restarts, closed.restarts]).toEqual([1, 0, 0]);
  });
});
