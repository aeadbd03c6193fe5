import WebSocket from 'ws';
import { checkProbeMessage, emptyCheckState, learnFromJanus, MAX_CHECK_MESSAGES } from './check-policy.ts';

/** A check that has not finished in this long is over: the browser gives up after 20 s anyway. */
const CHECK_LIFETIME_MS = 45_000;

/**
 * The lobby's connection check, browser ↔ Janus: every browser message passes check-policy, carries a Janus token
 * for the echo plugin only, and the Janus session is destroyed when the socket closes or the check's time is up.
 * Nothing is announced to the meeting: the person is not in the call.
 */
export class CheckRelay {
  private readonly upstream: WebSocket;
  private readonly queue: string[] = [];
  private readonly state = emptyCheckState();
  private messages = 0;
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly client: WebSocket,
    private readonly opts: { upstreamUrl: string; janusToken(): string },
    early: string[],
  ) {
    this.upstream = new WebSocket(opts.upstreamUrl, 'janus-protocol', { maxPayload: 256 * 1024 });
    this.upstream.on('open', () => {
      for (const m of this.queue.splice(0)) this.upstream.send(m);
    });
    this.upstream.on('message', (raw) => {
      const text = String(raw);
      try {
        learnFromJanus(JSON.parse(text) as Record<string, unknown>, this.state);
      } catch {
        return;
      }
      if (client.readyState === WebSocket.OPEN) client.send(text);
    });
    this.upstream.on('error', () => {});
    this.upstream.on('close', () => this.close(4003, 'media server unavailable'));
    const fromBrowser = (text: string) => {
      if (this.closed) return;
      if (++this.messages > MAX_CHECK_MESSAGES) return this.close(1008, 'too many messages');
      let msg: unknown;
      try {
        msg = JSON.parse(text);
      } catch {
        return this.close(1007, 'not JSON');
      }
      const result = checkProbeMessage(msg, this.state);
      if (!result.ok) return this.close(1008, result.reason);
      const out = JSON.stringify({ ...result.message, token: this.opts.janusToken() });
      if (this.upstream.readyState === WebSocket.OPEN) this.upstream.send(out);
      else this.queue.push(out);
    };
    client.on('message', (raw, isBinary) => (isBinary ? this.close(1003, 'text only') : fromBrowser(String(raw))));
    client.on('close', () => this.close(1000, 'done'));
    client.on('error', () => this.close(1011, 'error'));
    for (const text of early) fromBrowser(text);
    this.timer = setTimeout(() => this.close(1000, 'check over'), CHECK_LIFETIME_MS);
    this.timer.unref();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    // The session's handle and peer connection go with it; Janus would otherwise keep them for its session timeout.
    if (this.state.sessionId !== null && this.upstream.readyState === WebSocket.OPEN) {
      this.upstream.send(JSON.stringify({ janus: 'destroy', transaction: 'check-end', session_id: this.state.sessionId, token: this.opts.janusToken() }));
    }
    setTimeout(() => this.upstream.close(), 100).unref();
    if (this.client.readyState === WebSocket.OPEN) this.client.close(code, reason);
  }
}
