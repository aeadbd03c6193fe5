import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { WebSocket, RawData } from 'ws';
import {
  CHAT_MAX_FRAME_BYTES,
  ChatCloseCodes,
  ChatSignalTypes,
  type ChatMessageEvent,
  type ChatSignal,
  type NotificationSeverity,
  type PresenceEntry,
  type Assurance,
} from '@videomote/contract/chat';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import { CHAT_TEXTS, parseClientFrame, type ChatCommand } from './chat-frames.ts';
import type { ChatStore, StoredPresence } from './chat-store.ts';
import { FloodGuard, TokenBucket } from './rate-limit.ts';

/** Who is behind a socket, decided once from the session and the meeting's participant list at the upgrade. */
export interface ChatMember {
  meetingId: string;
  meetingType: 0 | 1;
  participantId: string | null;
  displayName: string;
  /** Meeting admins (participants with isAdmin) moderate the chat. */
  moderator: boolean;
  /** How the session identified this person, and their booked role (issue 10); see assuranceOf in raised-hands.ts. */
  assurance: Assurance;
  role: ParticipantRole | null;
  /** Stable across reconnects; see StoredPresence.key. */
  key: string;
  sessionToken: string;
}

interface Connection extends ChatMember {
  id: string;
  socket: WebSocket;
  /** Until the welcome is sent, live signals wait here so none is lost between snapshot and subscription. */
  ready: boolean;
  pending: string[];
  /** Frames of one socket are handled one after the other, so a sender's messages keep their order. */
  queue: Promise<void>;
  bucket: TokenBucket;
  flood: FloodGuard;
  toldToSlowDown: boolean;
  closed: boolean;
  /** Answered the last ping; a socket that misses one is dead (no FIN ever came) and is dropped. */
  alive: boolean;
}

export interface ChatHubOptions {
  now: () => Date;
  isMeetingOver(meetingId: string): Promise<boolean>;
  sessionAlive(token: string): Promise<boolean>;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Burst and steady rate per socket; a person typing never reaches them. */
  rate?: { burst: number; perSecond: number };
  /** Refused frames within 10 s after which the socket is closed as a flood. */
  floodLimit?: number;
  sessionCheckMs?: number;
  sweepMs?: number;
  heartbeatMs?: number;
}

// A socket this far behind on reading is stalled; holding more for it would cost the whole server memory.
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * The chat of every meeting this process serves: checks each frame against the moderator rules, keeps the
 * meeting's state in the store and delivers the store's signals to the local sockets. Permissions are decided
 * here, never in the browser.
 */
export class ChatHub {
  private readonly local = new Map<string, Set<Connection>>();
  private readonly subscriptions = new Map<string, Promise<void>>();
  private readonly outboxes = new Map<string, string[]>();
  private readonly leaving = new Set<Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private closing = false;

  constructor(
    private readonly store: ChatStore,
    private readonly options: ChatHubOptions,
  ) {
    const sessionCheck = setInterval(() => void this.closeEndedSessions(), options.sessionCheckMs ?? 60_000);
    const sweep = setInterval(() => void this.purgeEnded().catch(() => {}), options.sweepMs ?? 5 * 60_000);
    // A laptop closed mid-call leaves a socket that never says goodbye; without pings it would linger in the list.
    const heartbeat = setInterval(() => this.heartbeat(), options.heartbeatMs ?? 30_000);
    sessionCheck.unref();
    sweep.unref();
    heartbeat.unref();
    this.timers.push(sessionCheck, sweep, heartbeat);
  }

  /** Takes over a freshly upgraded socket. Listeners are attached at once: frames may already be on their way. */
  attach(socket: WebSocket, member: ChatMember): void {
    const rate = this.options.rate ?? { burst: 10, perSecond: 3 };
    const conn: Connection = {
      ...member,
      id: crypto.randomUUID(),
      socket,
      ready: false,
      pending: [],
      queue: Promise.resolve(),
      bucket: new TokenBucket(rate.burst, rate.perSecond, performance.now()),
      flood: new FloodGuard(this.options.floodLimit ?? 20, 10_000),
      toldToSlowDown: false,
      closed: false,
      alive: true,
    };
    socket.on('message', (raw, isBinary) => this.onFrame(conn, raw, isBinary));
    socket.on('pong', () => (conn.alive = true));
    socket.on('close', () => this.detach(conn));
    conn.queue = this.enter(conn).catch((err) => {
      this.options.log.error({ err, meetingId: conn.meetingId }, 'chat: joining failed');
      socket.close(1011);
    });
  }

  private async enter(conn: Connection): Promise<void> {
    const { meetingId } = conn;
    let set = this.local.get(meetingId);
    if (!set) {
      set = new Set();
      this.local.set(meetingId, set);
      // Issued synchronously with the set's creation, so subscribe/unsubscribe reach the store in the right order.
      this.subscriptions.set(meetingId, this.store.subscribe(meetingId, (json) => this.deliver(meetingId, json)));
    }
    set.add(conn);
    await this.subscriptions.get(meetingId);
    await this.store.join(meetingId, this.stored(conn));
    const snapshot = await this.store.snapshot(meetingId);
    if (conn.closed) return;
    const ignored = new Set(snapshot.ignoredKeys);
    this.send(conn, {
      type: ChatSignalTypes.welcome,
      data: {
        connectionId: conn.id,
        participantId: conn.participantId,
        moderator: conn.moderator,
        meetingType: conn.meetingType,
        chatOpen: snapshot.chatOpen,
        history: snapshot.history,
        participants: snapshot.presence.map((p) => publicEntry(p, ignored.has(p.key))),
      },
    });
    conn.ready = true;
    for (const json of conn.pending.splice(0)) this.sendRaw(conn, json);
    await this.publish(meetingId, {
      type: ChatSignalTypes.presence,
      data: { joined: [publicEntry(this.stored(conn), ignored.has(conn.key))], left: [] },
    });
  }

  private detach(conn: Connection): void {
    if (conn.closed) return;
    conn.closed = true;
    const set = this.local.get(conn.meetingId);
    set?.delete(conn);
    if (set && set.size === 0) {
      this.local.delete(conn.meetingId);
      this.subscriptions.delete(conn.meetingId);
      void this.store.unsubscribe(conn.meetingId).catch(() => {});
    }
    // After the socket's own work (its join above all), so a leave never overtakes the join it undoes.
    const done = conn.queue
      .then(async () => {
        const remaining = await this.store.leave(conn.meetingId, conn.id);
        if (!this.closing) await this.publish(conn.meetingId, { type: ChatSignalTypes.presence, data: { joined: [], left: [conn.id] } });
        // Conference spec §9: meeting content is deleted when the call ends.
        if (remaining === 0 && (await this.options.isMeetingOver(conn.meetingId))) await this.store.clear(conn.meetingId);
      })
      .catch((err) => this.options.log.warn({ err, meetingId: conn.meetingId }, 'chat: leaving failed'))
      .finally(() => this.leaving.delete(done));
    this.leaving.add(done);
  }

  private onFrame(conn: Connection, raw: RawData, isBinary: boolean): void {
    if (conn.closed) return;
    if (isBinary) return void conn.socket.close(ChatCloseCodes.policy, 'Endast text');
    const bytes = Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : raw.byteLength;
    if (bytes > CHAT_MAX_FRAME_BYTES) return void conn.socket.close(ChatCloseCodes.tooBig, 'Meddelandet är för stort');
    const now = performance.now();
    if (!conn.bucket.take(now)) {
      if (conn.flood.refuse(now)) return void conn.socket.close(ChatCloseCodes.policy, 'För många meddelanden');
      if (!conn.toldToSlowDown) this.notify(conn, 'ERROR', CHAT_TEXTS.rateLimited);
      conn.toldToSlowDown = true;
      return;
    }
    conn.toldToSlowDown = false;
    const text = Array.isArray(raw) ? Buffer.concat(raw).toString('utf8') : Buffer.from(raw as ArrayBuffer).toString('utf8');
    const command = parseClientFrame(text);
    conn.queue = conn.queue
      .then(() => (conn.closed ? undefined : this.handle(conn, command)))
      .catch((err) => {
        this.options.log.error({ err, meetingId: conn.meetingId }, 'chat: frame failed');
        this.notify(conn, 'ERROR', 'Meddelandet kunde inte skickas. Försök igen.');
      });
  }

  private async handle(conn: Connection, command: ChatCommand): Promise<void> {
    const { meetingId } = conn;
    switch (command.kind) {
      case 'invalid':
        return this.notify(conn, 'ERROR', command.message);
      case 'chat': {
        const state = await this.store.postingState(meetingId, conn.key);
        // SECURITY: both checks are the server's; a modified client that still shows the input gets nowhere.
        if (state.ignored) return this.notify(conn, 'ERROR', CHAT_TEXTS.ignored);
        if (!state.chatOpen && !conn.moderator) return this.notify(conn, 'ERROR', CHAT_TEXTS.paused);
        const event: ChatMessageEvent = {
          id: crypto.randomUUID(),
          type: ChatSignalTypes.chatMessage,
          message: command.text,
          fromId: conn.id,
          fromName: conn.displayName,
          timestamp: this.options.now().toISOString(),
        };
        await this.store.append(meetingId, event);
        return this.publish(meetingId, { type: ChatSignalTypes.chatMessage, data: event });
      }
      case 'remove':
        if (!conn.moderator) return this.notify(conn, 'ERROR', CHAT_TEXTS.forbidden);
        await this.store.remove(meetingId, command.messageId);
        return this.publish(meetingId, { type: ChatSignalTypes.removeChat, data: { id: command.messageId } });
      case 'setOpen':
        if (!conn.moderator) return this.notify(conn, 'ERROR', CHAT_TEXTS.forbidden);
        await this.store.setOpen(meetingId, command.open);
        return this.publish(meetingId, { type: ChatSignalTypes.status, data: { chatOpen: command.open } });
      case 'toggleIgnore': {
        if (!conn.moderator) return this.notify(conn, 'ERROR', CHAT_TEXTS.forbidden);
        const { presence } = await this.store.snapshot(meetingId);
        const target = presence.find((p) => p.connectionId === command.connectionId);
        if (!target) return this.notify(conn, 'ERROR', CHAT_TEXTS.notConnected);
        if (target.moderator) return this.notify(conn, 'ERROR', CHAT_TEXTS.moderatorCannotBeMuted);
        await this.store.setIgnored(meetingId, target.key, command.ignore);
        // Every socket of that person (two tabs, a reconnect) is switched together.
        for (const p of presence.filter((q) => q.key === target.key)) {
          await this.publish(meetingId, { type: ChatSignalTypes.toggleIgnoreChat, data: { connectionId: p.connectionId, ignore: command.ignore } });
        }
        return;
      }
      case 'raiseHand': {
        const raised = await this.store.raiseHand(meetingId, conn.id);
        if (!raised?.changed) return;
        return this.publish(meetingId, { type: ChatSignalTypes.hand, data: { connectionId: conn.id, hand: raised.hand } });
      }
      case 'lowerHand': {
        const target = command.connectionId ?? conn.id;
        // SECURITY: lowering someone else's hand is the moderator's, checked here whatever the client shows.
        if (target !== conn.id && !conn.moderator) return this.notify(conn, 'ERROR', CHAT_TEXTS.handForbidden);
        if (!(await this.store.lowerHand(meetingId, target))) return;
        return this.publish(meetingId, { type: ChatSignalTypes.hand, data: { connectionId: target, hand: null } });
      }
    }
  }

  private deliver(meetingId: string, json: string): void {
    // Signals arriving in the same turn of the event loop go out together (see flush); under light load that is
    // one signal, sent at once; when the process is busy, batching saves a system call per socket per signal.
    let outbox = this.outboxes.get(meetingId);
    if (!outbox) {
      outbox = [];
      this.outboxes.set(meetingId, outbox);
      setImmediate(() => this.flush(meetingId));
    }
    outbox.push(json);
  }

  private flush(meetingId: string): void {
    const outbox = this.outboxes.get(meetingId) ?? [];
    this.outboxes.delete(meetingId);
    const conns = this.local.get(meetingId);
    if (!conns || !outbox.length) return;
    // Encoded once for the whole meeting, not once per socket: a webcast has hundreds.
    const frames = outbox.map((json) => Buffer.from(json));
    for (const conn of conns) {
      if (!conn.ready) {
        conn.pending.push(...outbox);
        continue;
      }
      // ws writes each frame to the TCP socket; corked, a batch leaves in one write.
      const tcp = (conn.socket as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
      tcp?.cork();
      for (const frame of frames) this.sendRaw(conn, frame);
      tcp?.uncork();
    }
  }

  private publish(meetingId: string, signal: ChatSignal): Promise<void> {
    return this.store.publish(meetingId, JSON.stringify(signal));
  }

  /** A notification for one socket only (a refusal, a limit): never stored, never fanned out. */
  private notify(conn: Connection, severity: NotificationSeverity, message: string): void {
    this.send(conn, {
      type: ChatSignalTypes.notification,
      data: { id: crypto.randomUUID(), type: ChatSignalTypes.notification, message, severity, timestamp: this.options.now().toISOString() },
    });
  }

  private send(conn: Connection, signal: ChatSignal): void {
    this.sendRaw(conn, JSON.stringify(signal));
  }

  private sendRaw(conn: Connection, data: string | Buffer): void {
    if (conn.socket.readyState !== conn.socket.OPEN) return;
    if (conn.socket.bufferedAmount > MAX_BUFFERED_BYTES) return void conn.socket.terminate();
    conn.socket.send(data, { binary: false, compress: false });
  }

  private stored(conn: Connection): StoredPresence {
    return {
      connectionId: conn.id,
      participantId: conn.participantId,
      displayName: conn.displayName,
      moderator: conn.moderator,
      key: conn.key,
      assurance: conn.assurance,
      role: conn.role,
      hand: null,
    };
  }

  private heartbeat(): void {
    for (const set of this.local.values()) {
      for (const c of set) {
        if (!c.alive) {
          c.socket.terminate();
          continue;
        }
        c.alive = false;
        c.socket.ping();
      }
    }
  }

  /** A socket outlives neither a logout nor an expired session. */
  private async closeEndedSessions(): Promise<void> {
    const byToken = new Map<string, Connection[]>();
    for (const set of this.local.values()) for (const c of set) byToken.set(c.sessionToken, [...(byToken.get(c.sessionToken) ?? []), c]);
    for (const [token, conns] of byToken) {
      const alive = await this.options.sessionAlive(token).catch(() => true);
      if (!alive) for (const c of conns) c.socket.close(ChatCloseCodes.sessionEnded, 'Sessionen har upphört');
    }
  }

  /** Deletes one meeting's chat (the retention job calls this for ended meetings). */
  async purge(meetingId: string): Promise<void> {
    await this.store.clear(meetingId);
  }

  /** Deletes the chat of every meeting that is over and has nobody connected. */
  async purgeEnded(): Promise<number> {
    let purged = 0;
    for (const meetingId of await this.store.knownMeetings()) {
      if (this.local.has(meetingId)) continue;
      const { presence } = await this.store.snapshot(meetingId);
      if (presence.length === 0 && (await this.options.isMeetingOver(meetingId))) {
        await this.store.clear(meetingId);
        purged++;
      }
    }
    return purged;
  }

  /** Resolves when every socket that has closed so far has been fully taken out of the meeting. */
  /** Who is connected to a meeting's chat now, across nodes: names and roles only, never the messages (Felsökning). */
  async presence(meetingId: string): Promise<{ connectionId: string; participantId: string | null; displayName: string; moderator: boolean }[]> {
    return (await this.store.snapshot(meetingId)).presence.map(({ connectionId, participantId, displayName, moderator }) => ({ connectionId, participantId, displayName, moderator }));
  }

  async idle(): Promise<void> {
    while (this.leaving.size) await Promise.allSettled([...this.leaving]);
  }

  /** How many sockets this process holds for a meeting (tests, metrics). */
  localCount(meetingId: string): number {
    return this.local.get(meetingId)?.size ?? 0;
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const t of this.timers) clearInterval(t);
    for (const set of this.local.values()) for (const c of set) c.socket.close(1001, 'Servern startas om');
    for (const set of [...this.local.values()]) for (const c of [...set]) this.detach(c);
    await Promise.allSettled([...this.leaving]);
    await this.store.close();
  }
}

function publicEntry(p: StoredPresence, chatIgnored: boolean): PresenceEntry {
  return {
    connectionId: p.connectionId,
    participantId: p.participantId,
    displayName: p.displayName,
    moderator: p.moderator,
    chatIgnored,
    assurance: p.assurance ?? 'anonymous',
    role: p.role ?? null,
    hand: p.hand ?? null,
  };
}
