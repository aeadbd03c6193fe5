import { CHAT_HISTORY_LIMIT, type ChatMessageEvent, type ChatSignal } from '@videomote/contract/chat';

/**
 * How far before its subscription dropped a node looks back in the history when it has resubscribed: a message
 * created before the drop may reach Redis after it (held in the client's offline queue, or sent again unanswered).
 */
export const CATCH_UP_LOOKBACK_MS = 10_000;

/**
 * The chat messages one node has handed to its sockets lately, per meeting, by the server's id: so that a message
 * is delivered once though it reaches the node twice (live, and again from the history after a resubscription; or
 * a PUBLISH sent again by the Redis client after the connection dropped before its answer).
 */
export class DeliveredMessages {
  private readonly ids = new Set<string>();

  /**
   * `limit`: twice the history Redis keeps, so every message still in the history that this node delivered is
   * remembered, though the order of delivery may differ a little from the order of the history.
   */
  constructor(private readonly limit = 2 * CHAT_HISTORY_LIMIT) {}

  /** Records a message; answers false when it was delivered already (then it must not be delivered again). */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    // A Set iterates in insertion order: the first is the oldest.
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value!);
    return true;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }
}

/** A signal as it came through Redis, read once for what the store itself acts on; null when it is not JSON. */
export function parseSignal(json: string): ChatSignal | null {
  try {
    return JSON.parse(json) as ChatSignal;
  } catch {
    return null;
  }
}

/**
 * The messages of the history (oldest first) a node missed while it was not subscribed: those created since `since`
 * that it has not delivered. Older ones reached its sockets live before the drop, or in their WELCOME.
 */
export function missedMessages(history: readonly ChatMessageEvent[], delivered: DeliveredMessages, since: number): ChatMessageEvent[] {
  return history.filter((m) => Date.parse(m.timestamp) >= since && !delivered.has(m.id));
}
