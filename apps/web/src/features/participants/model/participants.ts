import type { PresenceEntry } from '@videomote/contract/chat';

export interface ParticipantLists {
  count: number;
  /** Participants with a non-null id (spec §2); in a regular meeting everybody is in `everyone` instead. */
  presenters: PresenceEntry[];
  others: PresenceEntry[];
  everyone: PresenceEntry[];
}

const byName = (a: PresenceEntry, b: PresenceEntry) => a.displayName.localeCompare(b.displayName, 'sv');

/** Splits who is connected the way the panel shows them: in a webcast, presenters and the rest; else one list. */
export function participantLists(entries: readonly PresenceEntry[]): ParticipantLists {
  const sorted = [...entries].sort(byName);
  return {
    count: entries.length,
    presenters: sorted.filter((p) => p.participantId !== null),
    others: sorted.filter((p) => p.participantId === null),
    everyone: sorted,
  };
}

/** A moderator may switch chat off for a regular participant: never for a moderator, never for oneself. */
export const canToggleChat = (viewerIsModerator: boolean, p: PresenceEntry, ownConnectionId: string | null) =>
  viewerIsModerator && !p.moderator && p.connectionId !== ownConnectionId;
