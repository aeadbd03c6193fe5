import { describe, expect, it } from 'vitest';
import { restartAskedMeanwhile, statBytes, transportBytesReceived } from './socket-resume.ts';

/** A peer connection as statBytes reads it: its state and its stats entries (a browser API, faked). */
const pcWith = (entries: { type: string; bytesReceived?: number; bytesSent?: number }[], connectionState = 'connected') =>
  ({ connectionState, getStats: async () => new Map(entries.map((e, i) => [String(i), e])) }) as unknown as RTCPeerConnection;

describe('socket resume', () => {
  it('counts a restart as asked meanwhile when one was pending at either end or more were asked since', () => {
    const idle = { asked: 2, pending: false };
    expect(restartAskedMeanwhile(idle, idle)).toBe(false);
    expect(restartAskedMeanwhile({ asked: 2, pending: true }, idle)).toBe(true);
    expect(restartAskedMeanwhile(idle, { asked: 2, pending: true })).toBe(true);
    expect(restartAskedMeanwhile(idle, { asked: 3, pending: false })).toBe(true);
  });

  it('sums received bytes, or sent bytes for outbound RTP, over the entries of that type', async () => {
    const pc = pcWith([
      { type: 'inbound-rtp', bytesReceived: 100 },
      { type: 'inbound-rtp', bytesReceived: 50 },
      { type: 'outbound-rtp', bytesSent: 7, bytesReceived: 1_000 },
      { type: 'transport', bytesReceived: 900 },
    ]);
    expect(await statBytes(pc, 'inbound-rtp')).toBe(150);
    expect(await statBytes(pc, 'outbound-rtp')).toBe(7);
    expect(await statBytes(pc, 'transport')).toBe(900);
  });

  it('has no figure for a missing or closed connection, or one without such entries', async () => {
    expect(await statBytes(null, 'inbound-rtp')).toBeNull();
    expect(await statBytes(pcWith([{ type: 'inbound-rtp', bytesReceived: 5 }], 'closed'), 'inbound-rtp')).toBeNull();
    expect(await statBytes(pcWith([{ type: 'transport', bytesReceived: 5 }]), 'inbound-rtp')).toBeNull();
  });

  it('adds the transport bytes of each connection once, however many streams share it', async () => {
    const subscriber = pcWith([{ type: 'transport', bytesReceived: 300 }]);
    const camera = pcWith([{ type: 'transport', bytesReceived: 20 }]);
    expect(await transportBytesReceived([{ pc: camera }, { pc: subscriber }, { pc: subscriber }])).toBe(320);
    expect(await transportBytesReceived([{ pc: pcWith([]) }])).toBeNull();
    expect(await transportBytesReceived([])).toBeNull();
  });
});
