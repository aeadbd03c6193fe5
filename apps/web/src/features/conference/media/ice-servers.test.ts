import { describe, expect, it } from 'vitest';
import { applyIceServers } from './ice-servers.ts';

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
