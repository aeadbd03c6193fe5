import type { MediaConnection } from '@videomote/contract/media';

/**
 * Another node's connection as this node knows it, once Janus told the room that `feedId` left (its publisher
 * unpublished, or its Janus session ended — as when that node was killed and its socket to Janus dropped with it).
 * Answers the connection without that feed, or null when the feed is not (or no longer) this connection's.
 *
 * Why: a killed node announces nothing more, and its connections age out only after REMOTE_EXPIRY_MS. Until then
 * the browsers here would go on asking Janus for its dead feeds — and one dead feed fails a whole subscription, so
 * the live ones were not received either. Janus's own notice is immediate. A live node's newer announcement (a
 * republished camera under a new id) is never undone: only the feed that left is dropped.
 */
export function withoutLeftFeed(connection: MediaConnection, feedId: number): MediaConnection | null {
  if (connection.feedId === feedId) return { ...connection, feedId: null, hasAudio: false, hasVideo: false };
  if (connection.screenFeedId === feedId) return { ...connection, screenFeedId: null };
  return null;
}
