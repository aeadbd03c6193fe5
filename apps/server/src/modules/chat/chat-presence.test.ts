import { describe, expect, it } from 'vitest';
import type { StoredPresence } from './chat-store.ts';
import { byPerson, handOf, publicIdOf } from './chat-presence.ts';

const socket = (connectionId: string, publicId: string | undefined, over: Partial<StoredPresence> = {}): StoredPresence => ({
  connectionId,
  publicId,
  participantId: null,
  displayName: `Namn ${publicId ?? connectionId}`,
  moderator: false,
  key: `k-${publicId ?? connectionId}`,
  assurance: 'anonymous',
  role: null,
  hand: null,
  ...over,
});

describe('publicIdOf', () => {
  it('gives every socket of one person in one meeting the same id, another in another meeting, in UUID form', () => {
    const id = publicIdOf({ meetingId: 'm1', key: 'p:1' });
    expect(publicIdOf({ meetingId: 'm1', key: 'p:1' })).toBe(id);
    expect(publicIdOf({ meetingId: 'm2', key: 'p:1' })).not.toBe(id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(id).not.toContain('p:1');
  });
});

describe('handOf', () => {
  it("is a person's earliest raise among their sockets, or none", () => {
    expect(handOf([socket('a', 'x', { hand: 5 }), socket('b', 'x', { hand: 3 }), socket('c', 'x')])).toBe(3);
    expect(handOf([socket('a', 'x')])).toBeNull();
  });
});

describe('byPerson', () => {
  it('lists a person once however many sockets, in the order they first came, moderator if any socket is', () => {
    const people = byPerson([socket('a', 'x'), socket('b', 'y'), socket('c', 'x', { moderator: true, hand: 2 })], new Set(['k-y']));
    expect(people.map((p) => [p.connectionId, p.moderator, p.hand, p.chatIgnored])).toEqual([
      ['x', true, 2, false],
      ['y', false, null, true],
    ]);
  });
  it('counts an entry of an older process (no publicId) as a person of its own', () => {
    expect(byPerson([socket('a', undefined), socket('b', undefined)], new Set()).map((p) => p.connectionId)).toEqual(['a', 'b']);
  });
});
