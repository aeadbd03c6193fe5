import { describe, expect, it } from 'vitest';
import type { Holder } from '../../platform/media-holds.ts';
import { heldBy, personUsage } from './live-connections.ts';

const limits = { perPerson: 4, perMeeting: 10 };

describe('personUsage', () => {
  it("counts a person's PeerConnections and publishers over all their sockets, and the meeting's over everyone's", () => {
    const usage = personUsage(
      [
        { personKey: 'p:a', peerConnections: 2, publishers: 1 },
        { personKey: 'p:b', peerConnections: 3, publishers: 1 },
        { personKey: 'p:a', peerConnections: 1, publishers: 1 },
      ],
      'p:a',
      limits,
    );
    expect(usage).toEqual({ person: { peerConnections: 3, publishers: 2 }, meeting: { peerConnections: 6 }, limits });
  });
});

describe('heldBy', () => {
  const holder: Holder = { person: 'af:erik', session: 's:1', address: 'ip:10.0.0.1' };
  it('adds each socket to every scope it shares with the holder (person, session, address)', () => {
    const held = heldBy(holder, [
      { holder, handles: 3, peerConnections: 2 },
      // Another tab of the same person in a new session, from the same office address.
      { holder: { ...holder, session: 's:2' }, handles: 2, peerConnections: 1 },
      // Someone else behind the same address.
      { holder: { person: 'af:anna', session: 's:3', address: 'ip:10.0.0.1' }, handles: 5, peerConnections: 4 },
    ]);
    expect(held).toEqual({
      handles: { person: 5, session: 3, address: 10 },
      peerConnections: { person: 3, session: 2, address: 7 },
    });
  });
});
