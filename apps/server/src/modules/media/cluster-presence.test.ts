import { describe, expect, it } from 'vitest';
import type { Holder } from '../../platform/media-holds.ts';
import { addRemoteHolds, REMOTE_EXPIRY_MS, stillHeard } from './cluster-presence.ts';

describe('stillHeard', () => {
  it("keeps another node's word for three announcements, and no longer", () => {
    expect(REMOTE_EXPIRY_MS).toBe(15_000);
    expect(stillHeard(1_000, 1_000 + REMOTE_EXPIRY_MS - 1)).toBe(true);
    expect(stillHeard(1_000, 1_000 + REMOTE_EXPIRY_MS)).toBe(false);
  });
});

describe('addRemoteHolds', () => {
  it('adds what each other node holds under the holder’s person, session and address keys', () => {
    const holder: Holder = { person: 'af:erik', session: 's:1', address: 'ip:10.0.0.1' };
    const held = { handles: { person: 1, session: 1, address: 1 }, peerConnections: { person: 1, session: 1, address: 1 } };
    addRemoteHolds(held, holder, [
      { 'af:erik': [2, 1], 'ip:10.0.0.1': [10, 5] },
      { 's:1': [4, 2], 'af:anna': [100, 100] },
    ]);
    expect(held).toEqual({ handles: { person: 3, session: 5, address: 11 }, peerConnections: { person: 2, session: 3, address: 6 } });
  });
});
