import WebSocket from 'ws';

/** Janus's WebSocket subprotocol, and the largest message the relay takes from it. */
export const openUpstream = (url: string): WebSocket => new WebSocket(url, 'janus-protocol', { maxPayload: 1024 * 1024 });

/**
 * One WebSocket to each Janus opened ahead of need, so that a browser's `/media` connection gets its upstream
 * socket already open instead of waiting for a handshake with Janus after its own (the join's first request,
 * `create`, waited for it: tens of ms, more on a busy host). The one taken is replaced at once. An idle socket has no
 * Janus session, so it holds nothing in Janus; one that closes while idle is simply made again on the next take.
 */
export class UpstreamWarmer {
  private readonly ready = new Map<string, { ws: WebSocket; at: number }>();
  private closed = false;

  constructor(
    private readonly open: (url: string) => WebSocket = openUpstream,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A socket to `url`, open or opening; the next one for `url` starts opening now. The caller must put its own
   * listeners on it in the same turn (its 'error' included).
   */
  take(url: string): WebSocket {
    const warm = this.ready.get(url);
    this.ready.delete(url);
    this.prepare(url);
    if (!warm) return this.open(url);
    warm.ws.removeAllListeners();
    // An idle socket kept long could have been cut without a close on the way (a firewall's idle timeout): not used.
    if (usable(warm.ws) && this.now() - warm.at < WARM_FOR_MS) return warm.ws;
    discard(warm.ws);
    return this.open(url);
  }

  /** Closes the idle sockets; no new ones are made. */
  close(): void {
    this.closed = true;
    for (const { ws } of this.ready.values()) discard(ws);
    this.ready.clear();
  }

  private prepare(url: string): void {
    if (this.closed) return;
    const ws = this.open(url);
    // A failure is the next taker's to meet (a fresh socket then): nothing to report while nobody uses it.
    ws.on('error', () => {});
    ws.on('close', () => {
      if (this.ready.get(url)?.ws === ws) this.ready.delete(url);
    });
    this.ready.set(url, { ws, at: this.now() });
  }
}

/** How long an idle socket is trusted to be alive. */
export const WARM_FOR_MS = 60_000;

const usable = (ws: WebSocket) => ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING;

function discard(ws: WebSocket): void {
  ws.removeAllListeners();
  ws.on('error', () => {});
  ws.terminate();
}
