import crypto from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * What one server process tells all the others: a booking change their live connections must act on, a session
 * ended by a logout. One process (the embedded default) has nobody to tell; with REDIS_URL the processes behind the
 * load balancer hear each other through Redis pub/sub. A process never receives its own messages back.
 */
export interface ClusterBus {
  publish(topic: ClusterTopic, message: string): Promise<void>;
  /** Messages on the topic from the other processes. */
  on(topic: ClusterTopic, handler: (message: string) => void): void;
  /** Resolves once this process hears the others. */
  ready(): Promise<void>;
  close(): Promise<void>;
  /** Messages from Redis dropped so far, by reason (forged, unsigned, replayed late, not ours at all). */
  dropped(): Record<DropReason, number>;
  /**
   * The same signature for another module's own Redis channel (the chat's signals): `seal` wraps a message,
   * `open` checks one (this node's own included) and answers its content, or null when dropped (and counted).
   */
  seal(channel: string, message: string): string;
  open(channel: string, raw: string): string | null;
}

/** seal/open of a single process: nothing crosses Redis, so nothing is wrapped. */
export const UNSEALED: Pick<ClusterBus, 'seal' | 'open'> = { seal: (_channel, message) => message, open: (_channel, raw) => raw };

const noDrops = (): Record<DropReason, number> => ({ malformed: 0, unsigned: 0, 'bad-signature': 0, stale: 0 });

export type ClusterTopic = 'meeting-events' | 'sessions-ended' | 'media-connections' | 'media-holds' | 'media-moderation' | 'media-moderation-answers';

/** Why a message from Redis was not acted on; counted (videomote_cluster_messages_dropped_total). */
export type DropReason = 'malformed' | 'unsigned' | 'bad-signature' | 'stale';

/**
 * How far a message's time may be from this node's: the nodes' clocks (NTP) and Redis's delivery stay well within
 * it, while a message captured from Redis cannot be replayed later (a kick, a logout) once it has passed.
 */
export const MESSAGE_MAX_AGE_MS = 30_000;

/**
 * SECURITY: anyone who can write to Redis can publish on its channels. Every message carries an HMAC-SHA256 under
 * the cluster key over its topic, sender, time and content; one without it, with a wrong one, or too old is
 * dropped and counted, never acted on.
 */
export function signMessage(key: Buffer, topic: string, from: string, at: number, message: string): string {
  return crypto.createHmac('sha256', key).update(`${topic}\n${from}\n${at}\n${message}`).digest('base64url');
}

/** A raw Redis message checked: the content to hand on, or why it is dropped (null: this node's own message). */
export function verifyMessage(key: Buffer, topic: string, raw: string, node: string, now: number): { message: string } | { drop: DropReason } | null {
  let parsed: { from?: unknown; at?: unknown; message?: unknown; mac?: unknown };
  try {
    parsed = JSON.parse(raw) as typeof parsed;
  } catch {
    return { drop: 'malformed' };
  }
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.message !== 'string' || typeof parsed.from !== 'string') return { drop: 'malformed' };
  if (typeof parsed.mac !== 'string' || typeof parsed.at !== 'number') return { drop: 'unsigned' };
  const expected = Buffer.from(signMessage(key, topic, parsed.from, parsed.at, parsed.message));
  const given = Buffer.from(parsed.mac);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { drop: 'bad-signature' };
  if (Math.abs(now - parsed.at) > MESSAGE_MAX_AGE_MS) return { drop: 'stale' };
  if (parsed.from === node) return null;
  return { message: parsed.message };
}

/**
 * The key the messages are signed with: CLUSTER_SECRET when set (required off loopback, see config.ts), else
 * derived from the PIN key, which every node of a cluster shares already (a loopback-only development cluster).
 */
export function clusterKey(clusterSecret: string | null, pinKey: Buffer): Buffer {
  const secret = clusterSecret ? Buffer.from(clusterSecret, 'utf8') : pinKey;
  return crypto.createHmac('sha256', secret).update('videomote cluster bus v1').digest();
}

export function openClusterBus(redisUrl: string | null, key: Buffer, now: () => number = Date.now): ClusterBus {
  return redisUrl ? new RedisClusterBus(redisUrl, key, now) : new SingleProcessBus();
}

class SingleProcessBus implements ClusterBus {
  async publish(): Promise<void> {}
  on(): void {}
  async ready(): Promise<void> {}
  async close(): Promise<void> {}
  dropped(): Record<DropReason, number> {
    return noDrops();
  }
  seal = UNSEALED.seal;
  open = UNSEALED.open;
}

const CHANNEL_PREFIX = 'vm:cluster:';

class RedisClusterBus implements ClusterBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly node = crypto.randomUUID();
  private readonly handlers = new Map<string, ((message: string) => void)[]>();
  private readonly subscribed: Promise<void>;
  private readonly drops = noDrops();

  constructor(
    url: string,
    private readonly key: Buffer,
    private readonly now: () => number,
  ) {
    this.pub = new Redis(url, { maxRetriesPerRequest: 3 });
    this.sub = new Redis(url);
    // ioredis reconnects by itself (and subscribes again); an 'error' without a listener would crash the process.
    this.pub.on('error', () => {});
    this.sub.on('error', () => {});
    this.sub.on('message', (channel: string, raw: string) => {
      // Anyone who can reach Redis can publish here: something that is not ours, or not signed by a node of ours,
      // is dropped and counted, never thrown from an event listener (which would end the process).
      const topic = channel.slice(CHANNEL_PREFIX.length);
      const checked = verifyMessage(this.key, topic, raw, this.node, this.now());
      if (!checked) return;
      if ('drop' in checked) {
        this.drops[checked.drop] += 1;
        return;
      }
      for (const handler of this.handlers.get(topic) ?? []) {
        try {
          handler(checked.message);
        } catch {
          /* a malformed event for this handler */
        }
      }
    });
    const topics: ClusterTopic[] = ['meeting-events', 'sessions-ended', 'media-connections', 'media-moderation', 'media-moderation-answers'];
    // Subscribe only once the connection is ready: a SUBSCRIBE ahead of ioredis's own start-up commands is lost
    // (see redis-chat-store.ts).
    this.subscribed = new Promise<void>((resolve) => (this.sub.status === 'ready' ? resolve() : this.sub.once('ready', () => resolve())))
      .then(() => this.sub.subscribe(...topics.map((t) => CHANNEL_PREFIX + t)))
      .then(() => undefined, () => undefined);
  }

  async publish(topic: ClusterTopic, message: string): Promise<void> {
    const at = this.now();
    await this.pub.publish(CHANNEL_PREFIX + topic, JSON.stringify({ from: this.node, at, message, mac: signMessage(this.key, topic, this.node, at, message) }));
  }

  dropped(): Record<DropReason, number> {
    return { ...this.drops };
  }

  seal(channel: string, message: string): string {
    const at = this.now();
    return JSON.stringify({ from: this.node, at, message, mac: signMessage(this.key, channel, this.node, at, message) });
  }

  open(channel: string, raw: string): string | null {
    // No node is '': this node's own messages are handed on too (each node delivers its own chat signals from Redis).
    const checked = verifyMessage(this.key, channel, raw, '', this.now());
    if (!checked) return null;
    if ('drop' in checked) {
      this.drops[checked.drop] += 1;
      return null;
    }
    return checked.message;
  }

  on(topic: ClusterTopic, handler: (message: string) => void): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  ready(): Promise<void> {
    return this.subscribed;
  }

  async close(): Promise<void> {
    await Promise.all([this.pub.quit().catch(() => {}), this.sub.quit().catch(() => {})]);
  }
}
