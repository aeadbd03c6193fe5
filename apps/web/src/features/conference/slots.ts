import type { ComponentType } from 'react';

/**
 * Where the chat and participants features plug into the meeting screen. Features do not import each other, so
 * `app/` registers their components here (e.g. in app/router.tsx) and the conference renders whatever is set.
 */
export interface ConferencePanelProps {
  meetingId: string;
  /** The own media connection id (the chat protocol's `from`). */
  connectionId: string | null;
  displayName: string;
  /** Microphone and camera state per participant id, for the participants panel's presenter rows. */
  media: Record<string, { hasAudio: boolean; hasVideo: boolean }>;
  onClose(): void;
}

export interface ConferenceSlots {
  /** The chat panel ('Chatt'), shown in the side panel when chat is open. */
  chatPanel: ComponentType<ConferencePanelProps> | null;
  /** The participants panel ('Deltagare (n)'), shown in the side panel when open. */
  participantsPanel: ComponentType<ConferencePanelProps> | null;
  /** The unread-messages badge on the chat button. */
  unreadBadge: ComponentType<{ meetingId: string }> | null;
  /** Adds a notification line to the meeting's chat (spec §4: a failed connection is also an ERROR in chat). */
  notifyChat: ((meetingId: string, severity: 'ERROR' | 'INFO', message: string) => void) | null;
  /** How a tile's person was identified (from the chat presence, decided by the server), in the tile's menu. */
  tileIdentity?: ComponentType<{ meetingId: string; participantId: string }> | null;
  /** A live region for the whole call (joins, leaves, chat messages, raised hands). */
  announcer?: ComponentType<{ meetingId: string }> | null;
  /** The text interpreter's captions over the bottom of the stage (they travel on the chat socket). */
  captions?: ComponentType<{ meetingId: string }> | null;
  /**
   * A hook: how many people are in the meeting, as the participants panel counts them (the chat socket's presence);
   * null until that list has come. Registered once before the page renders, so the page calls the same hook always.
   */
  usePresentCount?: ((meetingId: string) => number | null) | null;
}

export const conferenceSlots: ConferenceSlots = { chatPanel: null, participantsPanel: null, unreadBadge: null, notifyChat: null };

export function registerConferenceSlots(slots: Partial<ConferenceSlots>): void {
  Object.assign(conferenceSlots, slots);
}
