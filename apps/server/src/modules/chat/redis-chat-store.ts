import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { CAPTION_HISTORY_LIMIT, CHAT_HISTORY_LIMIT, ChatSignalTypes, type CaptionLine, type ChatMessageEvent } from '@videomote/contract/chat';
import type { ChatSnapshot, ChatStore, StoredPresence } from './chat-store.ts';
import { CATCH_UP_LOOKBACK_MS, DeliveredMessages, missedMessages, parseSignal } from './chat-catch-up.ts';
import { personId } from './chat-presence.ts';
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
 * A chat message stored and published in one step (KEYS: history, started, meetings index, signals channel; ARGV:
 * the message, its time, the history's limit, the TTL, the meeting id, the sealed signal); answers 1 when this
 * message began the history. Two separate commands lost messages when Redis was restarted between them: stored in
 * the Redis that went away and published into the new one before the nodes had subscribed again, or published
 * with nothing stored.
 */
const POST_SCRIPT = `
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
local began = redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[4], 'NX')
if not began then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
redis.call('SADD', KEYS[3], ARGV[5])
redis.call('PUBLISH', KEYS[4], ARGV[6])
if began then return 1 else return 0 end
`;

/** Moves the history's start (KEYS[1]) later, never earlier (ISO times compare as strings), keeping its TTL. */
const LATER_START_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current and current < ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL') end
return 0
`;

/**
 * This node's sockets written again into a Redis that lost them (restarted empty): KEYS presence, hand queue,
 * meetings index; ARGV the TTL, the meeting id, then per socket its id, its entry and its hand ('' when down).
 * HSETNX: an entry Redis still holds is newer than this node's copy. The queue goes on after the highest hand.
 */
const RESTORE_SCRIPT = `
local top = 0
for i = 3, #ARGV, 3 do
  redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
  local hand = tonumber(ARGV[i + 2])
  if hand and hand > top then top = hand end
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[2])
if top > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], top, 'EX', ARGV[1]) end
return 0
`;

type PostCommand = (history: string, started: string, index: string, channel: string, event: string, timestamp: string, limit: number, ttl: number, meetingId: string, signal: string) => Promise<number>;

/**
 * Several server processes serving one meeting: state lives in Redis keys, signals go through pub/sub so every
 * process delivers them to its own sockets in the order Redis received them.
 */
export class RedisChatStore implements ChatStore {
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private readonly subscribers = new Map<string, (json: string) => void>();
  /** Per subscribed meeting: the chat messages delivered here lately, and since when (this.now()) it is subscribed. */
  private readonly delivered = new Map<string, { messages: DeliveredMessages; since: number }>();
  /** When the subscriber connection dropped (this.now()), until the messages published meanwhile are caught up. */
  private lostAt: number | null = null;
  private drops = 0;
  /**
   * The presence entries of this node's sockets, per meeting, as written: Redis holds them only in memory, so a
   * Redis restarted empty gets them again from here (else nobody connected before the restart could be switched
   * off, raise a hand, or be listed to someone joining after it).
   */
  private readonly mine = new Map<string, Map<string, NodePresence>>();
  private commandsLost = false;
  private readonly node = crypto.randomUUID();
  private readonly beat: NodeJS.Timeout;
  private readonly postCommand: PostCommand;

  /**
   * `envelope`: the cluster bus's signature (seal/open), so a signal written straight into Redis by anyone but a
   * node of ours (a forged chat message, a hand, a "chat closed") is dropped and counted, never delivered.
   */
  constructor(
    url: string,
    private readonly prefix = 'vm:chat:',
    private readonly envelope: Pick<ClusterBus, 'seal' | 'open'> = UNSEALED,
    private readonly now: () => Date = () => new Date(),
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
      if (opened !== null) this.receive(meetingId, opened);
    });
    // While the subscriber is away (Redis restarted, the network cut), what is published reaches this node no more;
    // ioredis subscribes again on reconnecting, and the messages stored meanwhile are read back from the history.
    this.sub.on('close', () => {
      this.drops += 1;
      this.lostAt ??= this.now().getTime();
    });
    this.sub.on('ready', () => void this.catchUp());
    this.cmd.defineCommand('chatPost', { numberOfKeys: 4, lua: POST_SCRIPT });
    this.postCommand = (this.cmd as unknown as { chatPost: PostCommand }).chatPost.bind(this.cmd);
    const beat = () => void this.cmd.set(this.nodeKey(this.node), '1', 'EX', NODE_TTL_SECONDS).catch(() => {});
    this.cmd.on('close', () => (this.commandsLost = true));
    this.cmd.on('ready', () => {
      if (!this.commandsLost) return;
      this.commandsLost = false;
      // At once, not at the next beat: until then every entry of this node's would read as a dead node's ghost.
      beat();
      void this.restorePresence().catch(() => {});
    });
    beat();
    this.beat = setInterval(beat, NODE_BEAT_MS);
    this.beat.unref();
  }

  /**
   * A signal for this node's sockets: a chat message already delivered here is not delivered again. A hand lowered
   * (by a moderator on any node) is lowered in this node's copy of its sockets' entries too.
   */
  private receive(meetingId: string, json: string): void {
    const deliver = this.subscribers.get(meetingId);
    if (!deliver) return;
    const signal = parseSignal(json);
    if (signal?.type === ChatSignalTypes.chatMessage && this.delivered.get(meetingId)?.messages.add(signal.data.id) === false) return;
    if (signal?.type === ChatSignalTypes.hand && signal.data.hand === null) {
      for (const entry of this.mine.get(meetingId)?.values() ?? []) if (personId(entry) === signal.data.connectionId) entry.hand = null;
    }
    deliver(json);
  }

  /** After the command connection came back: this node's sockets' presence, into a Redis that may have lost it. */
  private async restorePresence(): Promise<void> {
    for (const [meetingId, entries] of this.mine) {
      if (!entries.size) continue;
      const args = [...entries.values()].flatMap((e) => [e.connectionId, JSON.stringify(e), e.hand == null ? '' : String(e.hand)]);
      await this.cmd.eval(RESTORE_SCRIPT, 3, this.k(meetingId, 'presence'), this.k(meetingId, 'handseq'), this.index, TTL_SECONDS, meetingId, ...args);
    }
  }

  /** Keeps this node's copy of one of its entries as Redis has it. */
  private remember(meetingId: string, entry: NodePresence): void {
    let entries = this.mine.get(meetingId);
    if (!entries) this.mine.set(meetingId, (entries = new Map()));
    entries.set(entry.connectionId, entry);
  }

  /**
   * After the subscriber connection came back: the chat messages stored while it was away, which their PUBLISH
   * never brought here, are delivered from the history (a Redis restarted empty holds those stored since).
   */
  private async catchUp(): Promise<void> {
    const lostAt = this.lostAt;
    if (lostAt === null) return;
    const drops = this.drops;
    const meetings = [...this.subscribers.keys()];
    try {
      // Answered after the resubscription ioredis sent when it reconnected: whatever is published from here on
      // arrives live, and whatever was stored before is in the history read below.
      if (meetings.length) await this.sub.subscribe(...meetings.map((m) => this.k(m, 'signals')));
      for (const meetingId of meetings) {
        const seen = this.delivered.get(meetingId);
        if (!seen) continue;
        const history = (await this.cmd.lrange(this.k(meetingId, 'history'), 0, -1)).map((h) => JSON.parse(h) as ChatMessageEvent);
        for (const event of missedMessages(history, seen.messages, Math.max(seen.since, lostAt - CATCH_UP_LOOKBACK_MS))) {
          this.receive(meetingId, JSON.stringify({ type: ChatSignalTypes.chatMessage, data: event }));
        }
      }
      // Dropped again meanwhile: the next 'ready' catches up from the first drop.
      if (this.drops === drops) this.lostAt = null;
    } catch {
      // Redis went away again before it answered: the next 'ready' tries again.
    }
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
    this.delivered.set(meetingId, { messages: new DeliveredMessages(), since: this.now().getTime() });
    // A SUBSCRIBE that reaches Redis before ioredis's own start-up commands (ready check, client info) puts the
    // connection in subscriber mode under them: they fail and the subscription is silently lost. Measured in the
    // benchmark when a socket joined within a second of the process starting; so wait until the connection is ready.
    if (this.sub.status !== 'ready') await new Promise<void>((resolve) => this.sub.once('ready', () => resolve()));
    await this.sub.subscribe(this.k(meetingId, 'signals'));
  }
  async unsubscribe(meetingId: string): Promise<void> {
    this.subscribers.delete(meetingId);
    this.delivered.delete(meetingId);
    await this.sub.unsubscribe(this.k(meetingId, 'signals'));
  }
  async publish(meetingId: string, json: string): Promise<void> {
    const channel = this.k(meetingId, 'signals');
    await this.cmd.publish(channel, this.envelope.seal(channel, json));
  }

  async join(meetingId: string, entry: StoredPresence): Promise<void> {
    const key = this.k(meetingId, 'presence');
    const stored: NodePresence = { ...entry, node: this.node };
    this.remember(meetingId, stored);
    await this.cmd.multi().hset(key, entry.connectionId, JSON.stringify(stored)).expire(key, TTL_SECONDS).sadd(this.index, meetingId).exec();
  }
  async leave(meetingId: string, connectionId: string): Promise<number> {
    const key = this.k(meetingId, 'presence');
    const entries = this.mine.get(meetingId);
    entries?.delete(connectionId);
    if (entries?.size === 0) this.mine.delete(meetingId);
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

  async post(meetingId: string, event: ChatMessageEvent): Promise<void> {
    const channel = this.k(meetingId, 'signals');
    const signal = this.envelope.seal(channel, JSON.stringify({ type: ChatSignalTypes.chatMessage, data: event }));
    const started = this.k(meetingId, 'started');
    const began = await this.postCommand(this.k(meetingId, 'history'), started, this.index, channel, JSON.stringify(event), event.timestamp, CHAT_HISTORY_LIMIT, TTL_SECONDS, meetingId, signal);
    // A message created before Redis went away may be stored only in the Redis that replaced it (held in the client's
    // queue, or sent again unanswered), and be the first there: dated from it, the new history would claim messages
    // the old one held and a reconnecting client would drop those it has seen (messagesAfterWelcome). The history
    // holds every message stored since it began, so it is dated from when this one was stored, by this node's clock.
    // The message is stored and sent by now: failing here must not tell its sender it was not (they would send it again).
    if (began === 1) await this.cmd.eval(LATER_START_SCRIPT, 1, started, this.now().toISOString()).catch(() => {});
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
    const mine = this.mine.get(meetingId)?.get(connectionId);
    if (mine) mine.hand = hand;
    return { hand, changed: true };
  }
  async lowerHand(meetingId: string, connectionId: string): Promise<boolean> {
    const key = this.k(meetingId, 'presence');
    const raw = await this.cmd.hget(key, connectionId);
    if (!raw) return false;
    const entry = JSON.parse(raw) as NodePresence;
    if (entry.hand == null) return false;
    await this.cmd.hset(key, connectionId, JSON.stringify({ ...entry, hand: null }));
    const mine = this.mine.get(meetingId)?.get(connectionId);
    if (mine) mine.hand = null;
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
    this.delivered.clear();
    this.mine.clear();
    await Promise.allSettled([this.sub.quit(), this.cmd.quit()]);
  }
}

const inOrder = (raw: string[]): StoredCaption[] => raw.map((c) => JSON.parse(c) as StoredCaption).sort((a, b) => a.seq - b.seq);
