import { describe, expect, it } from 'vitest';
import { DEFAULT_MEDIA_HOLD_CAPS, fullScope, holderOf, holdRefusal } from './media-holds.ts';

describe('media holds', () => {
  it('name the person the same in every meeting, apart from their session and address', () => {
    expect(holderOf({ afId: 'a123', pinHash: null, subject: 's1' }, 'h1', '10.0.0.1')).toEqual({ person: 'af:a123', session: 's:h1', address: 'ip:10.0.0.1' });
    expect(holderOf({ afId: null, pinHash: 'ph', subject: 's2' }, 'h2', '::1').person).toBe('pin:ph');
    expect(holderOf({ afId: null, pinHash: null, subject: 'visitor-x' }, 'h3', '::1').person).toBe('sub:visitor-x');
  });

  it('find the first scope that is full, and none while each has room', () => {
    const caps = { person: 3, session: 2, address: 10 };
    expect(fullScope({ person: 2, session: 1, address: 9 }, caps)).toBeNull();
    expect(fullScope({ person: 2, session: 2, address: 9 }, caps)).toBe('session');
    expect(fullScope({ person: 3, session: 1, address: 0 }, caps)).toBe('person');
    expect(fullScope({ person: 0, session: 0, address: 10 }, caps)).toBe('address');
  });

  it('leave room for real use by default: a call and its check per person, an office behind one address', () => {
    for (const caps of Object.values(DEFAULT_MEDIA_HOLD_CAPS)) {
      expect(caps.session).toBeLessThanOrEqual(caps.person);
      expect(caps.person).toBeLessThan(caps.address);
    }
    expect(holdRefusal('peerConnections', 'address')).toBe('too many peer connections for one client address');
    expect(holdRefusal('handles', 'person')).toBe('too many handles for one person');
  });
});
