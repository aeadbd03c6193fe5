import crypto from 'node:crypto';
import type { PresenceEntry } from '@videomote/contract/chat';
import type { StoredPresence } from './chat-store.ts';

/** A socket's stored presence as browsers see it. */
export function publicEntry(p: StoredPresence, chatIgnored: boolean): PresenceEntry {
  return {
    connectionId: p.connectionId,
    participantId: p.participantId,
    displayName: p.displayName,
    moderator: p.moderator,
    chatIgnored,
    assurance: p.assurance ?? 'anonymous',
    role: p.role ?? null,
    hand: p.hand ?? null,
  };
}

/**
 * The id browsers know a person by in one meeting: derived from the person's key (participant id, or a hash of a
 * visitor's session), so every socket of theirs gets the same one and nothing about the key can be read back.
 */
export function publicIdOf(member: { meetingId: string; key: string }): string {
  const h = crypto.createHash('sha256').update(`chat-person:${member.meetingId}:${member.key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export const personId = (p: StoredPresence): string => p.publicId ?? p.connectionId;

/** A person's raised hand is their earliest raise among their sockets. */
export function handOf(entries: StoredPresence[]): number | null {
  const hands = entries.map((e) => e.hand).filter((h): h is number => h != null);
  return hands.length ? Math.min(...hands) : null;
}

/** The participants list: one entry per person however many sockets they have, in the order they first came. */
export function byPerson(presence: StoredPresence[], ignored: Set<string>): PresenceEntry[] {
  const groups = new Map<string, StoredPresence[]>();
  for (const p of presence) groups.set(personId(p), [...(groups.get(personId(p)) ?? []), p]);
  return [...groups].map(([id, entries]) => ({
    ...publicEntry(entries[0]!, ignored.has(entries[0]!.key)),
    connectionId: id,
    moderator: entries.some((e) => e.moderator),
    hand: handOf(entries),
  }));
}
