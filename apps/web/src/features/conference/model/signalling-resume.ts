/**
 * What a `connected` on the page's `/media` socket means. A page whose socket broke opens a new one with the key of
 * its connection (a resume); the server answers `connected`, `resumed: true` when it still holds that very
 * connection. Behind the proxy the new socket can land on another app node (the old one was killed or drained):
 * that node holds nothing, so it answers with a connection of its own, not resumed. The page's Janus session and
 * peer connections lived on the lost connection, so only a fresh start helps then — and that fresh start must carry
 * a new key: with the old one the node would hand it back the connection the failed resume just made, as `resumed`
 * and under another id, and the page would give it up again, over and over (the failover that never came back).
 */
export type ConnectedOutcome =
  /** The same connection on a new socket: same id, Janus session, handles and feeds. */
  | 'resumed'
  /** A new connection, which the page adopts (its first, or the one of a fresh start). */
  | 'fresh'
  /** Not the page's connection: drop everything and start afresh, with a new key (`renewKey`). */
  | 'startAfresh';

export function connectedOutcome(
  message: { connectionId: string; resumed?: boolean },
  page: { resuming: boolean; connectionId: string | null },
): ConnectedOutcome {
  if (!page.resuming && !message.resumed) return 'fresh';
  if (message.resumed && page.connectionId !== null && message.connectionId === page.connectionId) return 'resumed';
  return 'startAfresh';
}
