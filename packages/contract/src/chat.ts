import { Type, type Static } from 'typebox';
import type { ParticipantRole } from './participant-roles.ts';

/**
 * The chat socket `WSS {chatBaseUrl}/{meetingId}` (conference spec §3, §4, §7).
 *
 * Client → server text frames:
 *  - JSON `{ from, data: { id, data }, type, displayName }` for a chat message, a removal (data.data = the removed
 *    message's id) and a per-participant chat switch (data.data = JSON string `{"connectionId": …, "ignore": …}`).
 *    `from` and `displayName` are accepted for wire compatibility but never trusted: the server takes the sender
 *    from the session and assigns message ids itself.
 *  - plain text `COMMAND:CHAT_CLOSE` / `COMMAND:CHAT_OPEN` (moderators pause and resume the chat).
 *
 * Server → client: JSON signals `{ type, data }`, a union keyed on `type`. The spec's five signals (chat message,
 * notification, remove chat, toggle ignore chat, status) plus two extensions of ours:
 *  - `WELCOME`, sent once to a new socket only: its own connection id and role, the chat state and recent
 *    messages (for late joiners and reconnects) and who is connected;
 *  - `PRESENCE`, to everybody when sockets join or leave, so the participants panel can count and list people.
 *    Each entry carries the person's identity assurance and booked role, both decided by the server;
 *  - `HAND`, to everybody when a hand is raised or lowered. Client frames `RAISE_HAND` (data.data '')
 *    and `LOWER_HAND` (data.data '' for one's own hand, or a connection id: moderators lower anyone's).
 *  - `CAPTION`, both ways: the booked text interpreter (Skrivtolk) sends the line being typed, again and again as
 *    it grows (data.id the line's id of the interpreter's choosing, data.data the whole line so far, data.final
 *    true once the line is done); everybody gets the server's CaptionLine. Only a socket whose booked role is
 *    TextInterpreter may send one: the server refuses anyone else with an ERROR notification. Lines live with the
 *    chat (memory or Redis, deleted when the call ends), the last CAPTION_HISTORY_LIMIT for late joiners.
 */

export const CHAT_MAX_LENGTH = 2000;
/** Frames above this are refused and the socket closed (1009); a 2000-character message fits with room to spare. */
export const CHAT_MAX_FRAME_BYTES = 16 * 1024;
/** Recent messages the server keeps per meeting for late joiners (conference spec §9: deleted when the call ends). */
export const CHAT_HISTORY_LIMIT = 200;

/** A caption line's length; a line is a sentence or two, the interpreter starts a new one with Enter. */
export const CAPTION_MAX_LENGTH = 500;
/** Caption lines kept per meeting for late joiners and reconnects (deleted with the chat when the call ends). */
export const CAPTION_HISTORY_LIMIT = 20;

export const CHAT_CLOSE_COMMAND = 'COMMAND:CHAT_CLOSE';
export const CHAT_OPEN_COMMAND = 'COMMAND:CHAT_OPEN';
/**
 * The client's health check (conference spec §9: every 5 s). The server answers with a `PONG` signal to this
 * socket alone; a socket that stays silent is half-open (an address change, a dead link) and the client replaces it.
 */
export const CHAT_PING_COMMAND = 'COMMAND:PING';

export const ChatSignalTypes = {
  chatMessage: 'CHAT_MESSAGE',
  notification: 'NOTIFICATION',
  removeChat: 'REMOVE_CHAT',
  toggleIgnoreChat: 'TOGGLE_IGNORE_CHAT',
  status: 'STATUS',
  welcome: 'WELCOME',
  presence: 'PRESENCE',
  raiseHand: 'RAISE_HAND',
  lowerHand: 'LOWER_HAND',
  hand: 'HAND',
  pong: 'PONG',
  caption: 'CAPTION',
} as const;

// ---- client → server -------------------------------------------------------------------------------------------

export const ClientFrameTypes = [
  ChatSignalTypes.chatMessage,
  ChatSignalTypes.removeChat,
  ChatSignalTypes.toggleIgnoreChat,
  ChatSignalTypes.raiseHand,
  ChatSignalTypes.lowerHand,
  ChatSignalTypes.caption,
] as const;
export type ClientFrameType = (typeof ClientFrameTypes)[number];

/** The spec's outgoing message: `from` (connection id), data `{ id, data }`, type, displayName. */
export const ClientFrame = Type.Object({
  from: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** `final` only in a CAPTION frame: the line is done (the interpreter pressed Enter). */
  data: Type.Object({ id: Type.Optional(Type.String()), data: Type.String(), final: Type.Optional(Type.Boolean()) }),
  type: Type.Union(ClientFrameTypes.map((t) => Type.Literal(t))),
  displayName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type ClientFrame = Static<typeof ClientFrame>;

/** What a toggle-ignore frame carries in `data.data`, as a JSON string (spec §3). */
export interface ToggleIgnorePayload {
  connectionId: string;
  ignore: boolean;
}

// ---- server → client -------------------------------------------------------------------------------------------

export type NotificationSeverity = 'ERROR' | 'INFO';

/** Chat message / event of spec §3. `fromName` may be empty; the client falls back to 'Anonym'. */
export interface ChatMessageEvent {
  id: string;
  type: typeof ChatSignalTypes.chatMessage;
  message: string;
  /** The sender's connection id on the chat socket. */
  fromId: string;
  fromName: string;
  /** ISO 8601. */
  timestamp: string;
}

export interface NotificationEvent {
  id: string;
  type: typeof ChatSignalTypes.notification;
  message: string;
  severity: NotificationSeverity;
  timestamp: string;
}

export type ChatEvent = ChatMessageEvent | NotificationEvent;

/**
 * How the server identified a person: 'eid' a verified e-ID whose personnummer matched the booking,
 * 'staff' an agency staff login matched by agency id, 'anonymous' a webcast visitor who only typed a name.
 * Decided from the session at the socket's upgrade; nothing a client sends can change it.
 */
export type Assurance = 'eid' | 'staff' | 'anonymous';

/** One connected socket, as the participants panel needs it (spec §3 Participant, without media state). */
export interface PresenceEntry {
  connectionId: string;
  /** Booked participant's id (presenters in a webcast); null for anonymous visitors. */
  participantId: string | null;
  displayName: string;
  moderator: boolean;
  /** A moderator switched this person's chat off ('Chatt av'). */
  chatIgnored: boolean;
  /**
   * Always sent by this server (optional only so older fixtures keep compiling): how the person was
   * identified, the role from the booking (null for visitors), and the raised hand's place in the queue (lower
   * first; null when the hand is down).
   */
  assurance?: Assurance;
  role?: ParticipantRole | null;
  hand?: number | null;
}

/** One caption line as everybody receives it; sent again, same id, each time the line grows. */
export interface CaptionLine {
  /** The server's id for the line (the interpreter's line id within their own namespace). */
  id: string;
  text: string;
  /** The interpreter finished the line; later lines follow under new ids. */
  final: boolean;
  /** The interpreter's connection id and name, from the server's session. */
  fromId: string;
  fromName: string;
  /** ISO 8601: when the line was last changed. */
  timestamp: string;
}

export interface WelcomeData {
  connectionId: string;
  participantId: string | null;
  moderator: boolean;
  /** Meeting type: 1 is a webcast (public meeting), where moderators see the pause toggle. */
  meetingType: 0 | 1;
  chatOpen: boolean;
  history: ChatMessageEvent[];
  /**
   * ISO 8601: the history holds every message from this time on (chat-history.ts historySince); what a client holds
   * from before stays (messagesAfterWelcome). Optional only so older fixtures keep compiling.
   */
  historySince?: string;
  participants: PresenceEntry[];
  /** The latest caption lines, oldest first (optional only so older fixtures keep compiling). */
  captions?: CaptionLine[];
}

export type ChatSignal =
  | { type: typeof ChatSignalTypes.chatMessage; data: ChatMessageEvent }
  | { type: typeof ChatSignalTypes.notification; data: NotificationEvent }
  | { type: typeof ChatSignalTypes.removeChat; data: { id: string } }
  | { type: typeof ChatSignalTypes.toggleIgnoreChat; data: ToggleIgnorePayload }
  | { type: typeof ChatSignalTypes.status; data: { chatOpen: boolean } }
  | { type: typeof ChatSignalTypes.welcome; data: WelcomeData }
  | { type: typeof ChatSignalTypes.presence; data: { joined: PresenceEntry[]; left: string[] } }
  | { type: typeof ChatSignalTypes.hand; data: { connectionId: string; hand: number | null } }
  | { type: typeof ChatSignalTypes.pong; data: null }
  | { type: typeof ChatSignalTypes.caption; data: CaptionLine };

/** Close codes the server uses, so the client knows not to retry a refusal in a loop. */
export const ChatCloseCodes = {
  /** Flooding or a malformed binary frame: policy violation. */
  policy: 1008,
  tooBig: 1009,
  /** Session expired or logged out while connected. */
  sessionEnded: 4401,
  /**
   * No longer in the meeting: the meeting admin removed this participant from the booking, or deleted the meeting
   * (the reason says which). Reconnecting would only be refused, so the client does not retry.
   */
  removed: 4403,
  /**
   * The meeting admin changed this participant's rights (made or unmade a moderator): the client connects again at
   * once and gets the new rights with the new welcome.
   */
  rightsChanged: 4409,
} as const;

/** Close reasons sent with ChatCloseCodes.removed. */
export const CHAT_REMOVED_REASONS = {
  removed: 'Du är inte längre deltagare i mötet',
  deleted: 'Mötet har tagits bort',
} as const;
