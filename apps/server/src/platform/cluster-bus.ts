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
}

export type ClusterTopic = 'meeting-events' | 'sessions-ended' | 'media-connections' | 'media-holds' | 'media-moderation' | 'media-moderation-answers';

export function openClusterBus(redisUrl: string | null): ClusterBus {
  return redisUrl ? new RedisClusterBus(redisUrl) : new SingleProcessBus();
}

class SingleProcessBus implements ClusterBus {
  async publish(): Promise<void> {}
  on(): void {}
  async ready(): Promise<void> {}
  async close(): Promise<void> {}
}

const CHANNEL_PREFIX = 'vm:cluster:';

class RedisClusterBus implements ClusterBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly node = crypto.randomUUID();
  private readonly handlers = new Map<string, ((message: string) => void)[]>();
  private readonly subscribed: Promise<void>;

  constructor(url: string) {
    this.pub = new Redis(url, { maxRetriesPerRequest: 3 });
    this.sub = new Redis(url);
    // ioredis reconnects by itself (and subscribes again); an 'error' without a listener would crash the process.
    this.pub.on('error', () => {});
    this.sub.on('error', () => {});
    this.sub.on('message', (channel: string, raw: string) => {
      // Anyone who can reach Redis can publish here: something that is not ours is dropped, never thrown from an
      // event listener (which would end the process).
      let parsed: { from?: unknown; message?: unknown };
      try {
        parsed = JSON.parse(raw) as typeof parsed;
      } catch {
        return;
      }
      if (parsed.from === this.node || typeof parsed.message !== 'string') return;
      for (const handler of this.handlers.get(channel.slice(CHANNEL_PREFIX.length)) ?? []) {
        try {
          handler(parsed.message);
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
    await this.pub.publish(CHANNEL_PREFIX + topic, JSON.stringify({ from: this.node, message }));
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
