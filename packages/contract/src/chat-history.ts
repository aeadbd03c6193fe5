import { CHAT_HISTORY_LIMIT, type ChatMessageEvent } from './chat.ts';

/**
 * From when a chat's history, as the server hands it out in a WELCOME, holds every message of the meeting (removals
 * applied). `started`: when the store's history began (its first message since the store was empty), null when it
 * holds none. The store keeps the last CHAT_HISTORY_LIMIT messages only, and a Redis restarted empty keeps nothing
 * from before (it keeps no chat on disk, docs/operations.md): the server cannot speak for messages before this time.
 */
export function historySince(started: string | null, history: readonly ChatMessageEvent[], now: Date): string {
  const begun = started ?? history[0]?.timestamp ?? now.toISOString();
  const trimmedTo = history.length >= CHAT_HISTORY_LIMIT ? history[0]!.timestamp : null;
  return trimmedTo !== null && trimmedTo > begun ? trimmedTo : begun;
}

/**
 * The chat messages a client shows after a WELCOME (a first connect or a reconnect). The history is the truth from
 * `since` on: a message removed while the client was away is gone from it. What the client already holds from before
 * `since` stays: a reconnect after the history was trimmed or its Redis restarted empty must not take away messages
 * the reader has seen (they were lost from a reconnecting participant's list when a node died after a Redis restart,
 * e2e/cluster-load.spec.ts). `since` absent (an older server): the history is the whole truth, as before.
 */
export function messagesAfterWelcome(held: readonly ChatMessageEvent[], history: readonly ChatMessageEvent[], since: string | undefined): ChatMessageEvent[] {
  if (since === undefined) return [...history];
  const inHistory = new Set(history.map((m) => m.id));
  const earlier = held.filter((m) => m.timestamp < since && !inHistory.has(m.id));
  return [...earlier, ...history].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}
