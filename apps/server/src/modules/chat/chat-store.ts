import { CAPTION_HISTORY_LIMIT, CHAT_HISTORY_LIMIT, ChatSignalTypes, type CaptionLine, type ChatMessageEvent, type PresenceEntry } from '@videomote/contract/chat';

/** A connected socket as the server keeps it: the public entry plus the key the chat switch ('Chatt av') holds on to. */
export interface StoredPresence extends Omit<PresenceEntry, 'chatIgnored'> {
  /**
   * What browsers know this person by (PresenceEntry.connectionId, a message's fromId, HAND, toggle-ignore): one
   * id per person and meeting, shared by all their sockets (two tabs, a reconnect), so they are listed and counted
   * once. `connectionId` here is the socket's own id, which the store keys on. Optional only for entries written
   * by an older process (Redis across a rolling restart): those count as a person of their own.
   */
  publicId?: string;
  /**
   * Who this is across reconnects (participant id, or a hash of a visitor's session): a moderator's 'Chatt av'
   * must survive the participant reloading the page and getting a new connection id. Never sent to browsers.
   */
  key: string;
}

export interface ChatSnapshot {
  chatOpen: boolean;
  history: ChatMessageEvent[];
  /** When the history began: its first message since the store was empty (a Redis restarted empty forgets it). */
  historyStarted: string | null;
  presence: StoredPresence[];
  ignoredKeys: string[];
  /** The latest caption lines, oldest first. */
  captions: CaptionLine[];
}

/**
 * The per-meeting chat state and the fan-out of signals to every node serving the meeting. In one process it is
 * memory; with REDIS_URL it is Redis (state in keys, signals through pub/sub). Either way the state is content of
 * the call and is deleted when the call ends (conference spec §9).
 */
export interface ChatStore {
  /** Starts delivering the meeting's published signals (serialised JSON) to this node, in publish order. */
  subscribe(meetingId: string, deliver: (json: string) => void): Promise<void>;
  unsubscribe(meetingId: string): Promise<void>;
  publish(meetingId: string, json: string): Promise<void>;

  join(meetingId: string, entry: StoredPresence): Promise<void>;
  /** Removes a socket; answers how many sockets the meeting still has, on every node. */
  leave(meetingId: string, connectionId: string): Promise<number>;
  snapshot(meetingId: string): Promise<ChatSnapshot>;
  postingState(meetingId: string, key: string): Promise<{ chatOpen: boolean; ignored: boolean }>;

  /**
   * Stores a chat message in the history and publishes its CHAT_MESSAGE signal, as one step: either both happen
   * or neither (a Redis restarted between the two would otherwise lose the message, stored or sent but not both).
   */
  post(meetingId: string, event: ChatMessageEvent): Promise<void>;
  remove(meetingId: string, messageId: string): Promise<void>;
  setOpen(meetingId: string, open: boolean): Promise<void>;
  setIgnored(meetingId: string, key: string, ignore: boolean): Promise<void>;
  /**
   * Raises a connected socket's hand: answers its place in the meeting's queue (a number that only
   * grows, so the order is the order the server received the raises) and whether it went up now (false: it was
   * already up, same place), or null when the socket is not connected. A hand goes down with its socket (leave).
   */
  raiseHand(meetingId: string, connectionId: string): Promise<{ hand: number; changed: boolean } | null>;
  /** Lowers a hand; answers whether one was up. */
  lowerHand(meetingId: string, connectionId: string): Promise<boolean>;
  /**
   * Stores a caption line: replaces the line with the same id where it is (it grew), or adds it as the newest,
   * dropping the oldest past CAPTION_HISTORY_LIMIT. Call content like the chat: gone with clear().
   */
  putCaption(meetingId: string, line: CaptionLine): Promise<void>;
  /** For /readyz: the store answers (Redis reachable; in memory always). */
  ping(): Promise<boolean>;
  /** Forgets everything about the meeting's chat. */
  clear(meetingId: string): Promise<void>;
  /** Meetings this node holds state for (for the sweep that purges ended calls). */
  knownMeetings(): Promise<string[]>;
  close(): Promise<void>;
}

interface MeetingState {
  chatOpen: boolean;
  history: ChatMessageEvent[];
  historyStarted: string | null;
  presence: Map<string, StoredPresence>;
  ignored: Set<string>;
  handSeq: number;
  captions: CaptionLine[];
}

/** One server process: everything in memory, signals delivered synchronously in publish order. */
export class MemoryChatStore implements ChatStore {
  private readonly meetings = new Map<string, MeetingState>();
  private readonly subscribers = new Map<string, (json: string) => void>();

  private state(meetingId: string): MeetingState {
    let s = this.meetings.get(meetingId);
    if (!s) {
      s = { chatOpen: true, history: [], historyStarted: null, presence: new Map(), ignored: new Set(), handSeq: 0, captions: [] };
      this.meetings.set(meetingId, s);
    }
    return s;
  }

  async subscribe(meetingId: string, deliver: (json: string) => void): Promise<void> {
    this.subscribers.set(meetingId, deliver);
  }
  async unsubscribe(meetingId: string): Promise<void> {
    this.subscribers.delete(meetingId);
  }
  async publish(meetingId: string, json: string): Promise<void> {
    this.subscribers.get(meetingId)?.(json);
  }

  async join(meetingId: string, entry: StoredPresence): Promise<void> {
    this.state(meetingId).presence.set(entry.connectionId, entry);
  }
  async leave(meetingId: string, connectionId: string): Promise<number> {
    const s = this.meetings.get(meetingId);
    if (!s) return 0;
    s.presence.delete(connectionId);
    return s.presence.size;
  }
  async snapshot(meetingId: string): Promise<ChatSnapshot> {
    const s = this.state(meetingId);
    return { chatOpen: s.chatOpen, history: [...s.history], historyStarted: s.historyStarted, presence: [...s.presence.values()], ignoredKeys: [...s.ignored], captions: [...s.captions] };
  }
  async postingState(meetingId: string, key: string) {
    const s = this.state(meetingId);
    return { chatOpen: s.chatOpen, ignored: s.ignored.has(key) };
  }

  async post(meetingId: string, event: ChatMessageEvent): Promise<void> {
    const s = this.state(meetingId);
    s.historyStarted ??= event.timestamp;
    s.history.push(event);
    if (s.history.length > CHAT_HISTORY_LIMIT) s.history.splice(0, s.history.length - CHAT_HISTORY_LIMIT);
    await this.publish(meetingId, JSON.stringify({ type: ChatSignalTypes.chatMessage, data: event }));
  }
  async remove(meetingId: string, messageId: string): Promise<void> {
    const s = this.meetings.get(meetingId);
    if (s) s.history = s.history.filter((e) => e.id !== messageId);
  }
  async setOpen(meetingId: string, open: boolean): Promise<void> {
    this.state(meetingId).chatOpen = open;
  }
  async setIgnored(meetingId: string, key: string, ignore: boolean): Promise<void> {
    const s = this.state(meetingId);
    if (ignore) s.ignored.add(key);
    else s.ignored.delete(key);
  }
  async raiseHand(meetingId: string, connectionId: string): Promise<{ hand: number; changed: boolean } | null> {
    const s = this.meetings.get(meetingId);
    const entry = s?.presence.get(connectionId);
    if (!s || !entry) return null;
    if (entry.hand != null) return { hand: entry.hand, changed: false };
    const hand = ++s.handSeq;
    s.presence.set(connectionId, { ...entry, hand });
    return { hand, changed: true };
  }
  async lowerHand(meetingId: string, connectionId: string): Promise<boolean> {
    const entry = this.meetings.get(meetingId)?.presence.get(connectionId);
    if (!entry || entry.hand == null) return false;
    this.meetings.get(meetingId)!.presence.set(connectionId, { ...entry, hand: null });
    return true;
  }
  async putCaption(meetingId: string, line: CaptionLine): Promise<void> {
    const s = this.state(meetingId);
    s.captions = upsertCaption(s.captions, line);
  }
  async ping(): Promise<boolean> {
    return true;
  }

  async clear(meetingId: string): Promise<void> {
    this.meetings.delete(meetingId);
  }
  async knownMeetings(): Promise<string[]> {
    return [...this.meetings.keys()];
  }
  async close(): Promise<void> {
    this.meetings.clear();
    this.subscribers.clear();
  }
}

/** A line that grew replaces itself in place; a new line goes last and the oldest beyond the limit are dropped. */
export function upsertCaption(lines: readonly CaptionLine[], line: CaptionLine, limit = CAPTION_HISTORY_LIMIT): CaptionLine[] {
  const at = lines.findIndex((l) => l.id === line.id);
  if (at >= 0) return lines.map((l, i) => (i === at ? line : l));
  const next = [...lines, line];
  return next.length > limit ? next.slice(next.length - limit) : next;
}
