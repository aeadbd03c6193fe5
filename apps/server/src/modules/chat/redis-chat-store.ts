import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { CAPTION_HISTORY_LIMIT, CHAT_HISTORY_LIMIT, type CaptionLine, type ChatMessageEvent } from '@videomote/contract/chat';
import type { ChatSnapshot, ChatStore, StoredPresence } from './chat-store.ts';
import { UNSEALED, type ClusterBus } from '../../platform/cluster-bus.ts';

/** A caption line with its place in the meeting's order (a hash keeps no order of its own). */
type StoredCaption = CaptionLine & { seq: number };

// A backstop for state whose meeting never got a clean end (a node killed mid-call): call content must not linger.
const TTL_SECONDS = 24 * 60 * 60;
// Each process says every 10 s that it is alive; the sockets of a process that stopped saying so are gone.
const NODE_BEAT_MS = 10_000;
const NODE_TTL_SECONDS = 30;

type NodePresence = StoredPresence & { node: string };

/**
 * Several server processes serving one meeting: state lives in Redis keys, signals go through pub/sub so every
 * process delivers them to its own sockets in the order Redis received them.
 */
export class RedisChatStore implements ChatStore {
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private readonly subscribers = new Map<string, (json: string) => void>();
  private readonly node = crypto.randomUUID();
  private readonly beat: NodeJS.Timeout;

  /**
   * `envelope`: the cluster bus's signature (seal/open), so a signal written straight into Redis by anyone but a
   * node of ours (a forged chat message, a hand, a "chat closed") is dropped and counted, never delivered.
   */
  constructor(
    url: string,
    private readonly prefix = 'vm:chat:',
    private readonly envelope: Pick<ClusterBus, 'seal' | 'open'> = UNSEALED,
  ) {
    // Commands wait while Redis is briefly away instead of failing the socket at once.
    this.cmd = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.sub = new Redis(url, { lazyConnect: false });
    // ioredis reconnects by itself; an 'error' without a listener would crash the process.
    this.cmd.on('error', () => {});
    this.sub.on('error', () => {});
    this.sub.on('message', (channel: string, message: string) => {
      const meetingId = channel.slice(this.prefix.length, -':signals'.length);
      const opened = this.envelope.open(channel, message);
      if (opened !== null) this.subscribers.get(meetingId)?.(opened);
    });
    const beat = () => void this.cmd.set(this.nodeKey(this.node), '1', 'EX', NODE_TTL_SECONDS).catch(() => {});
    beat();
    this.beat = setInterval(beat, NODE_BEAT_MS);
    this.beat.unref();
  }

  private nodeKey(node: string): string {
    return `${this.prefix}node:${node}`;
  }

  /**
   * The meeting's presence without the sockets of processes that died without saying goodbye (killed, crashed):
   * those entries are deleted here, so the participant list and the "last one left" decision stay right.
   */
  private async livePresence(meetingId: string, raw: string[]): Promise<StoredPresence[]> {
    const entries = raw.map((p) => JSON.parse(p) as NodePresence);
    const nodes = [...new Set(entries.map((e) => e.node))];
    if (!nodes.length) return [];
    const beats = await this.cmd.mget(...nodes.map((n) => this.nodeKey(n)));
    const dead = new Set(nodes.filter((_, i) => beats[i] === null));
    const ghosts = entries.filter((e) => dead.has(e.node));
    if (ghosts.length) await this.cmd.hdel(this.k(meetingId, 'presence'), ...ghosts.map((g) => g.connectionId));
    return entries.filter((e) => !dead.has(e.node)).map(({ node: _node, ...entry }) => entry);
  }

  private k(meetingId: string, part: 'open' | 'history' | 'started' | 'ignored' | 'presence' | 'signals' | 'handseq' | 'captions' | 'captionseq'): string {
    return `${this.prefix}${meetingId}:${part}`;
  }
  private get index(): string {
    return `${this.prefix}meetings`;
  }

  async subscribe(meetingId: string, deliver: (json: string) => void): Promise<void> {
    this.subscribers.set(meetingId, deliver);
    // A SUBSCRIBE that reaches Redis before ioredis's own start-up commands (ready check, client info) puts the
    // connection in subscriber mode under them: they fail and the subscription is silently lost. Measured in the
    // benchmark when a socket joined within a second of the process starting; so wait until the connection is ready.
    if (this.sub.status !== 'ready') await new Promise<void>((resolve) => this.sub.once('ready', () => resolve()));
    await this.sub.subscribe(this.k(meetingId, 'signals'));
  }
  async unsubscribe(meetingId: string): Promise<void> {
    this.subscribers.delete(meetingId);
    await this.sub.unsubscribe(this.k(meetingId, 'signals'));
  }
  async publish(meetingId: string, json: string): Promise<void> {
    const channel = this.k(meetingId, 'signals');
    await this.cmd.publish(channel, this.envelope.seal(channel, json));
  }

  async join(meetingId: string, entry: StoredPresence): Promise<void> {
    const key = this.k(meetingId, 'presence');
    const stored: NodePresence = { ...entry, node: this.node };
    await this.cmd.multi().hset(key, entry.connectionId, JSON.stringify(stored)).expire(key, TTL_SECONDS).sadd(this.index, meetingId).exec();
  }
  async leave(meetingId: string, connectionId: string): Promise<number> {
    const key = this.k(meetingId, 'presence');
    const result = await this.cmd.multi().hdel(key, connectionId).hvals(key).exec();
    return (await this.livePresence(meetingId, (result?.[1]?.[1] as string[] | undefined) ?? [])).length;
  }
  async snapshot(meetingId: string): Promise<ChatSnapshot> {
    const result = await this.cmd
      .multi()
      .get(this.k(meetingId, 'open'))
      .lrange(this.k(meetingId, 'history'), 0, -1)
      .get(this.k(meetingId, 'started'))
      .hvals(this.k(meetingId, 'presence'))
      .smembers(this.k(meetingId, 'ignored'))
      .hvals(this.k(meetingId, 'captions'))
      .exec();
    const [open, history, started, presence, ignored, captions] = (result ?? []).map(([err, value]) => {
      if (err) throw err;
      return value;
    }) as [string | null, string[], string | null, string[], string[], string[]];
    return {
      chatOpen: open !== '0',
      history: history.map((h) => JSON.parse(h) as ChatMessageEvent),
      historyStarted: started,
      presence: await this.livePresence(meetingId, presence),
      ignoredKeys: ignored,
      captions: inOrder(captions).map(({ seq: _seq, ...line }) => line),
    };
  }
  async postingState(meetingId: string, key: string) {
    const result = await this.cmd.multi().get(this.k(meetingId, 'open')).sismember(this.k(meetingId, 'ignored'), key).exec();
    return { chatOpen: result?.[0]?.[1] !== '0', ignored: Number(result?.[1]?.[1]) === 1 };
  }

  async append(meetingId: string, event: ChatMessageEvent): Promise<void> {
    const key = this.k(meetingId, 'history');
    await this.cmd
      .multi()
      .rpush(key, JSON.stringify(event))
      .ltrim(key, -CHAT_HISTORY_LIMIT, -1)
      .expire(key, TTL_SECONDS)
      // When this history began: kept while it lives, gone with it when Redis restarts empty (chat-history.ts).
      .set(this.k(meetingId, 'started'), event.timestamp, 'EX', TTL_SECONDS, 'NX')
      .expire(this.k(meetingId, 'started'), TTL_SECONDS)
      .sadd(this.index, meetingId)
      .exec();
  }
  async remove(meetingId: string, messageId: string): Promise<void> {
    const key = this.k(meetingId, 'history');
    const items = await this.cmd.lrange(key, 0, -1);
    const hit = items.find((item) => (JSON.parse(item) as ChatMessageEvent).id === messageId);
    if (hit) await this.cmd.lrem(key, 1, hit);
  }
  async setOpen(meetingId: string, open: boolean): Promise<void> {
    const key = this.k(meetingId, 'open');
    await this.cmd.multi().set(key, open ? '1' : '0', 'EX', TTL_SECONDS).sadd(this.index, meetingId).exec();
  }
  async setIgnored(meetingId: string, key: string, ignore: boolean): Promise<void> {
    const setKey = this.k(meetingId, 'ignored');
    if (ignore) await this.cmd.multi().sadd(setKey, key).expire(setKey, TTL_SECONDS).sadd(this.index, meetingId).exec();
    else await this.cmd.srem(setKey, key);
  }
  // The hand lives in the socket's presence entry (so it leaves with it); only the socket's owner and moderators
  // touch it, one frame at a time per socket, so a read-modify-write is enough here.
  async raiseHand(meetingId: string, connectionId: string): Promise<{ hand: number; changed: boolean } | null> {
    const key = this.k(meetingId, 'presence');
    const raw = await this.cmd.hget(key, connectionId);
    if (!raw) return null;
    const entry = JSON.parse(raw) as NodePresence;
    if (entry.hand != null) return { hand: entry.hand, changed: false };
    const seqKey = this.k(meetingId, 'handseq');
    const hand = await this.cmd.incr(seqKey);
    await this.cmd.expire(seqKey, TTL_SECONDS);
    // Only if the socket is still there: a leave in between must not bring it back.
    if (!(await this.cmd.hexists(key, connectionId))) return null;
    await this.cmd.hset(key, connectionId, JSON.stringify({ ...entry, hand }));
    return { hand, changed: true };
  }
  async lowerHand(meetingId: string, connectionId: string): Promise<boolean> {
    const key = this.k(meetingId, 'presence');
    const raw = await this.cmd.hget(key, connectionId);
    if (!raw) return false;
    const entry = JSON.parse(raw) as NodePresence;
    if (entry.hand == null) return false;
    await this.cmd.hset(key, connectionId, JSON.stringify({ ...entry, hand: null }));
    return true;
  }
  // Only the meeting's text interpreters write captions, each socket's frames one after the other; two typing at
  // once write different lines, so the read-then-write below cannot lose a line.
  async putCaption(meetingId: string, line: CaptionLine): Promise<void> {
    const key = this.k(meetingId, 'captions');
    const seqKey = this.k(meetingId, 'captionseq');
    const existing = await this.cmd.hget(key, line.id);
    const seq = existing ? (JSON.parse(existing) as StoredCaption).seq : await this.cmd.incr(seqKey);
    const stored: StoredCaption = { ...line, seq };
    await this.cmd.multi().hset(key, line.id, JSON.stringify(stored)).expire(key, TTL_SECONDS).expire(seqKey, TTL_SECONDS).sadd(this.index, meetingId).exec();
    if (existing || (await this.cmd.hlen(key)) <= CAPTION_HISTORY_LIMIT) return;
    const all = inOrder(await this.cmd.hvals(key));
    const drop = all.slice(0, all.length - CAPTION_HISTORY_LIMIT).map((c) => c.id);
    if (drop.length) await this.cmd.hdel(key, ...drop);
  }
  async ping(): Promise<boolean> {
    return (await this.cmd.ping()) === 'PONG';
  }

  async clear(meetingId: string): Promise<void> {
    await this.cmd
      .multi()
      .del(this.k(meetingId, 'open'), this.k(meetingId, 'history'), this.k(meetingId, 'started'), this.k(meetingId, 'ignored'), this.k(meetingId, 'presence'), this.k(meetingId, 'handseq'), this.k(meetingId, 'captions'), this.k(meetingId, 'captionseq'))
      .srem(this.index, meetingId)
      .exec();
  }
  async knownMeetings(): Promise<string[]> {
    return this.cmd.smembers(this.index);
  }
  async close(): Promise<void> {
    clearInterval(this.beat);
    this.subscribers.clear();
    await Promise.allSettled([this.sub.quit(), this.cmd.quit()]);
  }
}

const inOrder = (raw: string[]): StoredCaption[] => raw.map((c) => JSON.parse(c) as StoredCaption).sort((a, b) => a.seq - b.seq);
