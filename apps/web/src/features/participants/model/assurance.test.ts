import { describe, expect, it } from 'vitest';
import type { ChatMessageEvent } from '@videomote/contract/chat';
import { announcements, assuranceOf, handQueue } from './assurance.ts';
import { presenceEntry as p } from '../../../testing/presence.ts';

const msg = (id: string, fromId: string, message: string): ChatMessageEvent => ({ id, type: 'CHAT_MESSAGE', fromId, fromName: '', message, timestamp: '2026-01-01T00:00:00Z' });

describe('assurance and hands', () => {
  it('reads only the server’s three values; anything else is unverified', () => {
    expect(assuranceOf({ assurance: 'eid' })).toBe('eid');
    expect(assuranceOf({ assurance: 'staff' })).toBe('staff');
    expect(assuranceOf({})).toBe('anonymous');
    expect(assuranceOf({ assurance: 'verified' as never })).toBe('anonymous');
  });

  it('queues hands by the server’s number, not by name or list order', () => {
    const q = handQueue([p('a', 'Adam', { hand: 7 }), p('b', 'Bea', { hand: null }), p('c', 'Cecilia', { hand: 3 })]);
    expect(q.map((e) => e.displayName)).toEqual(['Cecilia', 'Adam']);
  });
});

describe('announcements', () => {
  const own = { connectionIds: ['me'], moderator: true };
  it('tells joins, leaves, others’ chat messages and raised hands; not a reconnect, not one’s own message', () => {
    const before = { participants: [p('me', 'Erik'), p('j1', 'Jonna', { participantId: 'pj' }), p('v', 'Vera')], events: [] };
    const after = {
      participants: [p('me', 'Erik'), p('j2', 'Jonna', { participantId: 'pj' }), p('k', 'Karin', { hand: 1 })],
      events: [msg('1', 'k', 'hej'), msg('2', 'me', 'själv')],
    };
    expect(announcements(before, after, own)).toEqual(['Karin anslöt till mötet', 'Vera lämnade mötet', 'Nytt chattmeddelande från Karin: hej']);
    const raised = { participants: after.participants.map((e) => (e.connectionId === 'j2' ? { ...e, hand: 2 } : e)), events: after.events };
    expect(announcements(after, raised, own)).toEqual(['Jonna räcker upp handen']);
    expect(announcements(after, raised, { ...own, moderator: false })).toEqual([]);
  });
});
