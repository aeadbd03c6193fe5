import type { PresenceEntry } from '@videomote/contract/chat';

/** Someone present in a meeting's chat, as the chat server announces them (for unit tests): no participant, no powers. */
export const presenceEntry = (connectionId: string, displayName: string, extra: Partial<PresenceEntry> = {}): PresenceEntry => ({
  connectionId,
  participantId: null,
  displayName,
  moderator: false,
  chatIgnored: false,
  ...extra,
});
