import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import { type HoldCounts, type HoldScope, type Holder } from '../../platform/media-holds.ts';
import { HOLD_REFRESH_MS, type SocketHolds } from '../../platform/socket-holds.ts';

/** How long a hold taken before the upgrade waits for its socket (a handshake that never completes lets it go). */
const UNATTACHED_MS = 30_000;
const SCOPES: HoldScope[] = ['person', 'session', 'address'];

/**
 * The `/media` sockets' holds: one taken before the upgrade (none when a person, session or address already holds its
 * cap of sockets: the route then closes the socket with MEDIA_SOCKETS_FULL_CLOSE_CODE), given back when the socket
 * closes, kept fresh meanwhile.
 */
export class MediaSocketHolds {
  private readonly live = new Map<string, { keys: string[]; since: number; attached: boolean }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: SocketHolds,
    private readonly caps: HoldCounts,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => void this.refresh(), HOLD_REFRESH_MS);
    this.timer.unref();
  }

  /** A hold's id, or null when one of the holder's scopes is full. */
  async take(holder: Holder): Promise<string | null> {
    const id = crypto.randomUUID();
    const requests = SCOPES.map((scope) => ({ key: `sockets:${holder[scope]}`, max: this.caps[scope] }));
    let full: number;
    try {
      full = await this.store.acquire(id, requests);
    } catch (err) {
      // As the rate limits do (skipOnError): Redis away lets sockets through rather than failing every call.
      this.log.warn({ err }, 'media socket holds unavailable');
      return id;
    }
    if (full >= 0) {
      this.log.warn({ scope: SCOPES[full] }, 'media socket refused: cap reached');
      return null;
    }
    this.live.set(id, { keys: requests.map((r) => r.key), since: Date.now(), attached: false });
    return id;
  }

  attach(id: string, socket: WebSocket): void {
    const hold = this.live.get(id);
    if (!hold) return;
    hold.attached = true;
    socket.once('close', () => this.release(id));
  }

  private release(id: string): void {
    const hold = this.live.get(id);
    if (!hold) return;
    this.live.delete(id);
    this.store.release(id, hold.keys).catch((err: unknown) => this.log.warn({ err }, 'media socket hold not released'));
  }

  private async refresh(): Promise<void> {
    const now = Date.now();
    for (const [id, hold] of this.live) if (!hold.attached && now - hold.since > UNATTACHED_MS) this.release(id);
    await this.store.refresh([...this.live].map(([id, h]) => ({ id, keys: h.keys }))).catch((err: unknown) => this.log.warn({ err }, 'media socket holds not refreshed'));
  }

  close(): void {
    clearInterval(this.timer);
    for (const id of [...this.live.keys()]) this.release(id);
  }
}
