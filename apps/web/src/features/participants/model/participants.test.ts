import { describe, expect, it } from 'vitest';
import type { PresenceEntry } from '@videomote/contract/chat';
import { canToggleChat, participantLists } from './participants.ts';

const p = (connectionId: string, displayName: string, participantId: string | null, moderator = false): PresenceEntry => ({
  connectionId,
  participantId,
  displayName,
  moderator,
  chatIgnored: false,
});

describe('participant lists', () => {
  it('splits presenters (non-null id) from the rest and counts everyone', () => {
    const lists = participantLists([p('1', 'Örjan', null), p('2', 'Erik', 'e', true), p('3', 'Anna', null), p('4', 'Bo', 'b')]);
    expect(lists.count).toBe(4);
    expect(lists.presenters.map((x) => x.displayName)).toEqual(['Bo', 'Erik']);
    expect(lists.others.map((x) => x.displayName)).toEqual(['Anna', 'Örjan']);
  });

  it('lets a moderator switch chat for regular participants only', () => {
    expect(canToggleChat(true, p('1', 'A', null), 'me')).toBe(true);
    expect(canToggleChat(false, p('1', 'A', null), 'me')).toBe(false);
    expect(canToggleChat(true, p('2', 'M', 'm', true), 'me')).toBe(false);
    expect(canToggleChat(true, p('me', 'Jag', 'x'), 'me')).toBe(false);
  });
});
