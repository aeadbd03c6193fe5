import type { MediaServerMessage } from '@videomote/contract/media';

/**
 * Our side of the `/media/{meetingId}` socket. janus.js opens its own WebSocket; we hand it a subclass so we can also
 * read and send our own (`videomote`) messages on the same socket. The tap is looked up by URL, which is unique per
 * connection attempt (`mediaSocketUrl`).
 */
const taps = new Map<string, (ws: WebSocket) => void>();
/** Sockets a resume replaced: janus.js no longer hears of their close (see retireSocket). */
const retired = new WeakSet<WebSocket>();

let Tapped: typeof WebSocket | null = null;
/** The WebSocket class janus.js is given (made on first use: the class extends the browser's WebSocket). */
export function tappedWebSocket(): typeof WebSocket {
  Tapped ??= class TappedWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      // Registered before janus.js's own listeners (it adds them after making the socket), so it can stop them.
      const hush = (event: Event) => retired.has(this) && event.stopImmediatePropagation();
      this.addEventListener('close', hush);
      this.addEventListener('error', hush);
      const tap = taps.get(String(url));
      taps.delete(String(url));
      tap?.(this);
    }
  };
  return Tapped;
}

/**
 * A resume's new socket takes over from `ws`: janus.js must not hear of `ws` closing. Its close handler marks the whole
 * session disconnected whichever socket closed, and a replaced socket's close can come long after the new one claimed
 * the session (the server ends it at the takeover, but on a congested link its end arrives behind its queued data):
 * janus.js then refused every later request ("Is the server down? (connected=false)") on a socket that worked.
 * Its messages still reach janus.js: until the takeover, the server's answers come on it.
 */
export function retireSocket(ws: WebSocket): void {
  retired.add(ws);
}

/** Hands the socket janus.js opens next for `url` (the first one, or a resume's) to `tap`. */
export function tapNextSocket(url: string, tap: (ws: WebSocket) => void): void {
  taps.set(url, tap);
}

/**
 * One attempt at the media connection, from `connect` to its teardown. Every callback made for it (janus.js's, a
 * timer's, an awaited promise's) holds its epoch and acts only while the epoch is live: a callback of a session that
 * was lost or left must not restart a publisher or touch the next session's state.
 */
export class SessionEpoch {
  private ended = false;
  constructor(readonly attempt: number) {}
  get live(): boolean {
    return !this.ended;
  }
  end(): void {
    this.ended = true;
  }
}

export interface MediaSocketAddress {
  /** `config.json` mediaBaseUrl, e.g. ws://host/media. */
  mediaBaseUrl: string;
  meetingId: string;
  token: string;
  /** The key of this page's connection: a new socket with it resumes that connection on the server. */
  clientKey: string;
  /** Makes the URL unique per attempt, for the tap. */
  attempt: number;
  /** Whether this browser encrypts media end to end (`e2ee=0` tells the server it does not). */
  e2ee: boolean;
}

export function mediaSocketUrl(a: MediaSocketAddress): string {
  return `${a.mediaBaseUrl}/${encodeURIComponent(a.meetingId)}?token=${encodeURIComponent(a.token)}&client=${a.clientKey}&a=${a.attempt}${a.e2ee ? '' : '&e2ee=0'}`;
}

/** Our own message in a socket frame, or null for janus.js's messages and anything unreadable. */
export function readServerMessage(data: unknown): MediaServerMessage | null {
  let msg: unknown;
  try {
    msg = JSON.parse(String(data));
  } catch {
    return null;
  }
  return msg && typeof msg === 'object' && 'videomote' in msg ? (msg as MediaServerMessage) : null;
}
