import WebSocket from 'ws';

/**
 * A raw Janus API client over our `/media/{meetingId}` relay, for tests that probe what the relay lets through
 * (the browser tests use janus.js through the real web app).
 */
export class RawMediaClient {
  private tx = 0;
  readonly own: Record<string, unknown>[] = [];
  private readonly waiting = new Map<string, { resolve(m: Record<string, unknown>): void; final: boolean }>();
  private readonly listeners: ((m: Record<string, unknown>) => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      if ('videomote' in m) this.own.push(m);
      for (const l of this.listeners) l(m);
      const t = typeof m.transaction === 'string' ? m.transaction : null;
      const w = t ? this.waiting.get(t) : undefined;
      if (!w || !t) return;
      if (m.janus === 'ack' && w.final) return; // wait for the plugin's event
      this.waiting.delete(t);
      w.resolve(m);
    });
  }

  static open(url: string, cookie: string): Promise<RawMediaClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, 'janus-protocol', { headers: { cookie } });
      ws.once('open', () => resolve(new RawMediaClient(ws)));
      ws.once('unexpected-response', (_q, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Sends a Janus request; resolves with the final answer (the plugin event for async requests). */
  request(message: Record<string, unknown>, waitForEvent = false): Promise<Record<string, unknown>> {
    const transaction = `t${++this.tx}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(message)}`)), 10_000);
      this.waiting.set(transaction, {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        final: waitForEvent,
      });
      this.ws.send(JSON.stringify({ ...message, transaction }));
    });
  }

  waitFor(pred: (m: Record<string, unknown>) => boolean, ms = 10_000): Promise<Record<string, unknown>> {
    const seen = this.own.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), ms);
      this.listeners.push((m) => {
        if (pred(m)) {
          clearTimeout(timer);
          resolve(m);
        }
      });
    });
  }

  /** create + attach the VideoRoom plugin: the session and handle ids to address. */
  async attach(): Promise<{ session: number; handle: number }> {
    const created = await this.request({ janus: 'create' });
    const session = (created.data as { id: number }).id;
    const attached = await this.request({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' });
    return { session, handle: (attached.data as { id: number }).id };
  }

  close(): void {
    this.ws.close();
  }
}
