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
    ws.once('close', (code) => (this.closeCode = code));
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

  static open(url: string, cookie: string, options: { origin?: string; autoPong?: boolean } = {}): Promise<RawMediaClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, 'janus-protocol', { headers: { cookie, ...(options.origin ? { origin: options.origin } : {}) }, autoPong: options.autoPong ?? true });
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

  /** Resolves with the close code once the socket is closed (by either side). */
  closed(): Promise<number> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve(this.closeCode ?? 1006);
    return new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
  }

  private closeCode: number | null = null;

  /** Sends without waiting (a burst); the answers are read with `request`-less listeners or `answers`. */
  fire(message: Record<string, unknown>): string {
    const transaction = `f${++this.tx}`;
    this.ws.send(JSON.stringify({ ...message, transaction }));
    return transaction;
  }

  /** The final answers (not acks) to the given transactions, as they come. */
  answers(transactions: string[], ms = 15_000): Promise<Map<string, Record<string, unknown>>> {
    const wanted = new Set(transactions);
    const got = new Map<string, Record<string, unknown>>();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${wanted.size - got.size} of ${wanted.size} requests unanswered`)), ms);
      const check = () => {
        if (got.size < wanted.size) return;
        clearTimeout(timer);
        resolve(got);
      };
      this.listeners.push((m) => {
        const t = typeof m.transaction === 'string' ? m.transaction : '';
        if (!wanted.has(t) || m.janus === 'ack') return;
        got.set(t, m);
        check();
      });
    });
  }
}

/**
 * A well-formed WebRTC offer of one audio line that no browser stands behind: Janus accepts it, answers, opens a
 * PeerConnection (and takes a port) and lists the publisher, though no media will ever flow. It says its media is
 * end-to-end encrypted (`e2ee`, as janus.js passes it on), since the meetings' rooms refuse any other publisher.
 */
export function fakeAudioOffer(): { type: 'offer'; sdp: string; e2ee: true } {
  const fingerprint = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).padStart(2, '0').toUpperCase()).join(':');
  const sdp = [
    'v=0',
    `o=- ${Date.now()} 2 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'a=msid-semantic: WMS fake',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'c=IN IP4 0.0.0.0',
    'a=rtcp:9 IN IP4 0.0.0.0',
    'a=ice-ufrag:fAkE',
    'a=ice-pwd:fakefakefakefakefakefake',
    'a=ice-options:trickle',
    `a=fingerprint:sha-256 ${fingerprint}`,
    'a=setup:actpass',
    'a=mid:0',
    'a=sendonly',
    'a=rtcp-mux',
    'a=rtpmap:111 opus/48000/2',
    'a=fmtp:111 minptime=10;useinbandfec=1',
    'a=ssrc:11111111 cname:fake',
    'a=ssrc:11111111 msid:fake audio',
    '',
  ].join('\r\n');
  return { type: 'offer', sdp, e2ee: true };
}
