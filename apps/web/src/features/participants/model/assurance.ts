import type { Assurance, ChatEvent, PresenceEntry } from '@videomote/contract/chat';
import { sv } from '../../../i18n/catalogues/sv.ts';
import { screenText as t, screenTexts } from '../../../i18n/screen-text.ts';

/** Labels (not in the spec: chosen here) for how the server identified a person, in the screen's language. */
export const ASSURANCE_LABELS: Record<Assurance, string> = screenTexts('participants.assurance', sv.participants.assurance);

/** Short forms for the list, the long label goes to screen readers and the tooltip. */
export const ASSURANCE_SHORT: Record<Assurance, string> = screenTexts('participants.assuranceShort', sv.participants.assuranceShort);

/** Only the server's three values count; anything else (an old server, a missing field) reads as unverified. */
export const assuranceOf = (p: Pick<PresenceEntry, 'assurance'>): Assurance =>
  p.assurance === 'eid' || p.assurance === 'staff' ? p.assurance : 'anonymous';

export const HAND_TEXTS = screenTexts('participants.hands', sv.participants.hands, {
  lowerFor: (name: string) => t('participants.hands.lowerFor', { name }),
});

/** The raised hands in the order the server received them (its number), people without a hand left out. */
export function handQueue(entries: readonly PresenceEntry[]): PresenceEntry[] {
  return entries.filter((p) => typeof p.hand === 'number').sort((a, b) => a.hand! - b.hand!);
}

export const ANNOUNCE_TEXTS = {
  joined: (name: string) => t('participants.announce.joined', { name }),
  left: (name: string) => t('participants.announce.left', { name }),
  message: (name: string, text: string) => t('participants.announce.message', { name, text }),
  hand: (name: string) => t('participants.announce.hand', { name }),
};

const nameOf = (p: PresenceEntry) => p.displayName.trim() || t('participants.anonymous');

/**
 * What a screen reader should hear between two looks at the chat state: people joining and leaving, new chat
 * messages from others, and (for moderators) raised hands. Pure, so the rules are tested without a browser.
 * Reconnects of the same person (a new socket, same participant or name) are not news.
 */
export function announcements(
  prev: { participants: readonly PresenceEntry[]; events: readonly ChatEvent[] },
  next: { participants: readonly PresenceEntry[]; events: readonly ChatEvent[] },
  own: { connectionIds: readonly string[]; moderator: boolean },
): string[] {
  const out: string[] = [];
  const who = (p: PresenceEntry) => p.participantId ?? `name:${p.displayName}`;
  const before = new Map(prev.participants.map((p) => [p.connectionId, p]));
  const after = new Map(next.participants.map((p) => [p.connectionId, p]));
  const whoBefore = new Set(prev.participants.map(who));
  const whoAfter = new Set(next.participants.map(who));
  for (const p of next.participants) {
    if (!before.has(p.connectionId) && !whoBefore.has(who(p)) && !own.connectionIds.includes(p.connectionId)) out.push(ANNOUNCE_TEXTS.joined(nameOf(p)));
  }
  for (const p of prev.participants) {
    if (!after.has(p.connectionId) && !whoAfter.has(who(p))) out.push(ANNOUNCE_TEXTS.left(nameOf(p)));
  }
  if (own.moderator) {
    for (const p of next.participants) {
      const was = before.get(p.connectionId);
      if (typeof p.hand === 'number' && was && typeof was.hand !== 'number') out.push(ANNOUNCE_TEXTS.hand(nameOf(p)));
    }
  }
  const seen = new Set(prev.events.map((e) => e.id));
  for (const e of next.events) {
    if (seen.has(e.id) || e.type !== 'CHAT_MESSAGE' || own.connectionIds.includes(e.fromId)) continue;
    const sender = next.participants.find((p) => p.connectionId === e.fromId);
    out.push(ANNOUNCE_TEXTS.message(sender ? nameOf(sender) : e.fromName.trim() || 'Anonym', e.message));
  }
  return out;
}
