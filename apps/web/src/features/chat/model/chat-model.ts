import {
  CHAT_CLOSE_COMMAND,
  CHAT_OPEN_COMMAND,
  CAPTION_HISTORY_LIMIT,
  ChatSignalTypes,
  type CaptionLine,
  type ChatEvent,
  type ChatMessageEvent,
  type ChatSignal,
  type ClientFrameType,
  type NotificationSeverity,
  type PresenceEntry,
} from '@videomote/contract/chat';
import { messagesAfterWelcome } from '@videomote/contract/chat-history';
import { CHAT_TEXTS } from '../texts.ts';

export type ChatConnection = 'connecting' | 'connected' | 'disconnected';

/** Chat state of conference spec §3 (chatEvents, ignoreList, numberOfUnreadMessages, chatOpen) plus who is connected. */
export interface ChatState {
  connection: ChatConnection;
  /** This browser's connection id on the chat socket; null until welcomed. */
  connectionId: string | null;
  /** Every connection id this browser has had (reconnects get new ones), so earlier own messages stay 'Du'. */
  ownConnectionIds: readonly string[];
  participantId: string | null;
  moderator: boolean;
  isWebcast: boolean;
  chatOpen: boolean;
  events: readonly ChatEvent[];
  /** Connection ids whose chat a moderator switched off; their messages are dropped. */
  ignoreList: readonly string[];
  participants: readonly PresenceEntry[];
  unread: number;
  /** Whether the chat panel is showing (the conference page says so); decides what counts as unread. */
  visible: boolean;
  /** The text interpreter's caption lines, oldest first, each as last sent (it grows while typed). */
  captions: readonly CaptionLine[];
}

export const initialChatState: ChatState = {
  connection: 'connecting',
  connectionId: null,
  ownConnectionIds: [],
  participantId: null,
  moderator: false,
  isWebcast: false,
  chatOpen: true,
  events: [],
  ignoreList: [],
  participants: [],
  unread: 0,
  visible: false,
  captions: [],
};

const withoutDuplicates = (list: readonly string[], add: string) => (list.includes(add) ? list : [...list, add]);

/** Applies one server signal. Pure: the same state and signal always give the same next state. */
export function reduceSignal(state: ChatState, signal: ChatSignal): ChatState {
  switch (signal.type) {
    case ChatSignalTypes.welcome: {
      const w = signal.data;
      // Reconnect: the server's history is the truth for chat messages from its start (removals may have happened
      // meanwhile); messages held from before it stay (messagesAfterWelcome), and our own local notifications too.
      const notes = state.events.filter((e) => e.type === ChatSignalTypes.notification);
      const held = state.events.filter((e): e is ChatMessageEvent => e.type === ChatSignalTypes.chatMessage);
      const events = [...notes, ...messagesAfterWelcome(held, w.history, w.historySince)].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
      return {
        ...state,
        connection: 'connected',
        connectionId: w.connectionId,
        ownConnectionIds: withoutDuplicates(state.ownConnectionIds, w.connectionId),
        participantId: w.participantId,
        moderator: w.moderator,
        isWebcast: w.meetingType === 1,
        chatOpen: w.chatOpen,
        events,
        participants: w.participants,
        // The server's lines are the truth after a reconnect, as its history is for chat messages.
        captions: w.captions ?? [],
        ignoreList: w.participants.filter((p) => p.chatIgnored).reduce((list, p) => withoutDuplicates(list, p.connectionId), [] as readonly string[]),
      };
    }
    case ChatSignalTypes.chatMessage: {
      const message = signal.data;
      if (state.ignoreList.includes(message.fromId)) return state;
      if (state.events.some((e) => e.id === message.id)) return state;
      const counts = !state.visible && !state.ownConnectionIds.includes(message.fromId);
      return { ...state, events: [...state.events, message], unread: counts ? state.unread + 1 : state.unread };
    }
    case ChatSignalTypes.notification:
      // Notifications are lines in the list; only chat messages raise the unread count (spec §4).
      return { ...state, events: [...state.events, signal.data] };
    case ChatSignalTypes.removeChat:
      return { ...state, events: state.events.filter((e) => e.id !== signal.data.id) };
    case ChatSignalTypes.toggleIgnoreChat: {
      const { connectionId, ignore } = signal.data;
      return {
        ...state,
        ignoreList: ignore ? withoutDuplicates(state.ignoreList, connectionId) : state.ignoreList.filter((id) => id !== connectionId),
        participants: state.participants.map((p) => (p.connectionId === connectionId ? { ...p, chatIgnored: ignore } : p)),
      };
    }
    case ChatSignalTypes.status:
      return { ...state, chatOpen: signal.data.chatOpen };
    case ChatSignalTypes.hand: {
      // The server's word on one hand; the queue is the participants with a hand, by that number.
      const { connectionId, hand } = signal.data;
      return { ...state, participants: state.participants.map((p) => (p.connectionId === connectionId ? { ...p, hand } : p)) };
    }
    case ChatSignalTypes.caption: {
      // A line that grew replaces itself in place; a new line goes last, the oldest beyond the server's limit go.
      const line = signal.data;
      const at = state.captions.findIndex((c) => c.id === line.id);
      if (at >= 0) return { ...state, captions: state.captions.map((c, i) => (i === at ? line : c)) };
      return { ...state, captions: [...state.captions, line].slice(-CAPTION_HISTORY_LIMIT) };
    }
    case ChatSignalTypes.presence: {
      const { joined, left } = signal.data;
      const joinedIds = new Set(joined.map((p) => p.connectionId));
      const participants = [...state.participants.filter((p) => !joinedIds.has(p.connectionId) && !left.includes(p.connectionId)), ...joined];
      const ignoreList = joined.filter((p) => p.chatIgnored).reduce((list, p) => withoutDuplicates(list, p.connectionId), state.ignoreList);
      return { ...state, participants, ignoreList };
    }
    default:
      return state;
  }
}

/** Sender-name fallback of spec §5: the connected participant's name, then the signal's name, then 'Anonym'. */
export function senderName(event: ChatMessageEvent, participants: readonly PresenceEntry[]): string {
  const connected = participants.find((p) => p.connectionId === event.fromId)?.displayName?.trim();
  return connected || event.fromName?.trim() || CHAT_TEXTS.anonymous;
}

export const isOwn = (state: ChatState, event: ChatMessageEvent) => state.ownConnectionIds.includes(event.fromId);

/** Where the model sends frames: the socket, or nothing while it is down. */
export type FrameSink = (frame: string) => boolean;

let localIds = 0;
const localId = () => (globalThis.crypto?.randomUUID?.() ?? `local-${Date.now()}-${++localIds}`);

/**
 * The chat of one meeting as a plain object: signals in, state out, frames to send. React only subscribes to it
 * (useChat), so the rules are tested without a browser.
 */
export class ChatModel {
  private state: ChatState = initialChatState;
  private readonly listeners = new Set<() => void>();
  private sink: FrameSink = () => false;

  constructor(private readonly now: () => Date = () => new Date()) {}

  getState = (): ChatState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: ChatState): void {
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  }

  attach(sink: FrameSink): void {
    this.sink = sink;
  }

  /** Back to the defaults, as when leaving the conference (spec §4 Disconnect). */
  reset(): void {
    this.set(initialChatState);
  }

  receive(signal: ChatSignal): void {
    this.set(reduceSignal(this.state, signal));
  }

  /** Unparseable or unknown frames are ignored: the server speaks the contract, anything else is noise. */
  receiveRaw(raw: string): void {
    let signal: ChatSignal;
    try {
      signal = JSON.parse(raw) as ChatSignal;
    } catch {
      return;
    }
    if (signal && typeof signal === 'object' && typeof signal.type === 'string') this.receive(signal);
  }

  setConnection(connection: ChatConnection): void {
    if (connection !== this.state.connection) this.set({ ...this.state, connection });
  }

  /** Opening the chat resets the unread count (spec §4). */
  setVisible(visible: boolean): void {
    if (visible === this.state.visible && (!visible || this.state.unread === 0)) return;
    this.set({ ...this.state, visible, unread: visible ? 0 : this.state.unread });
  }

  /** A line from this browser itself (e.g. the connection failed), shown like the server's notifications. */
  notify(severity: NotificationSeverity, message: string): void {
    this.receive({
      type: ChatSignalTypes.notification,
      data: { id: localId(), type: ChatSignalTypes.notification, message, severity, timestamp: this.now().toISOString() },
    });
  }

  /** Sends a chat message; an empty one is not sent (spec §5). Answers whether it went out. */
  send(text: string): boolean {
    if (!text.trim()) return false;
    return this.frame(ChatSignalTypes.chatMessage, text);
  }

  remove(messageId: string): boolean {
    return this.frame(ChatSignalTypes.removeChat, messageId);
  }

  toggleIgnore(connectionId: string, ignore: boolean): boolean {
    return this.frame(ChatSignalTypes.toggleIgnoreChat, JSON.stringify({ connectionId, ignore }));
  }

  /** Raise or lower one's own hand; a moderator lowers anyone's by connection id. The server decides. */
  raiseHand(): boolean {
    return this.frame(ChatSignalTypes.raiseHand, '');
  }

  lowerHand(connectionId: string | null = null): boolean {
    return this.frame(ChatSignalTypes.lowerHand, connectionId ?? '');
  }

  /**
   * The text interpreter's line so far (the whole line each time, under the same id until it is done). Only the
   * booked text interpreter's frames are accepted; the server tells anyone else so.
   */
  sendCaption(lineId: string, text: string, final: boolean): boolean {
    const own = this.state.participants.find((p) => p.connectionId === this.state.connectionId);
    return this.sink(JSON.stringify({ from: this.state.connectionId, data: { id: lineId, data: text, final }, type: ChatSignalTypes.caption, displayName: own?.displayName ?? null }));
  }

  /** The moderator's pause toggle: plain-text commands (spec §4). */
  setChatOpen(open: boolean): boolean {
    return this.sink(open ? CHAT_OPEN_COMMAND : CHAT_CLOSE_COMMAND);
  }

  private frame(type: ClientFrameType, data: string): boolean {
    // The spec's wire shape; the server ignores `from` and `displayName` and uses the session instead.
    const own = this.state.participants.find((p) => p.connectionId === this.state.connectionId);
    return this.sink(JSON.stringify({ from: this.state.connectionId, data: { id: localId(), data }, type, displayName: own?.displayName ?? null }));
  }
}
