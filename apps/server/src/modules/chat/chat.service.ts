// Long on purpose: one hub of the meeting's sockets. Joining, leaving, fan-out, heartbeat and the session and booking
// checks all walk the same per-meeting socket sets; the frame rules (chat-commands.ts) and presence (chat-presence.ts) are apart.
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { WebSocket, RawData } from 'ws';
import {
  CHAT_MAX_FRAME_BYTES,
  CHAT_REMOVED_REASONS,
  ChatCloseCodes,
  ChatSignalTypes,
  type ChatSignal,
  type NotificationSeverity,
  type Assurance,
  type CaptionLine,
} from '@videomote/contract/chat';
import { historySince } from '@videomote/contract/chat-history';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import { CHAT_TEXTS, parseClientFrame, type ChatCommand } from './chat-frames.ts';
import { handleCommand, type CommandContext } from './chat-commands.ts';
import type { ChatStore, StoredPresence } from './chat-store.ts';
import { byPerson, handOf, personId, publicEntry, publicIdOf } from './chat-presence.ts';
import { FloodGuard, TokenBucket } from '../../platform/message-rate.ts';
import { sha256 } from '../../platform/crypto.ts';
import { SessionWatch, type WatchedSessions } from '../../platform/session-watch.ts';

/** Who is behind a socket, decided once from the session and the meeting's participant list at the upgrade. */
export interface ChatMember {
  meetingId: string;
  meetingType: 0 | 1;
  participantId: string | null;
  displayName: string;
  /** Meeting admins (participants with isAdmin) moderate the chat. */
  moderator: boolean;
  /** How the session identified this person, and their booked role; see assuranceOf in raised-hands.ts. */
  assurance: Assurance;
  role: ParticipantRole | null;
  /** Stable across reconnects; see StoredPresence.key. */
  key: string;
  sessionToken: string;
}

interface Connection extends ChatMember {
  /** This socket's own id: the store's key for its presence entry. Never sent to browsers. */
  id: string;
  /** The hash of sessionToken: how a logout (in any process) names the session. */
  sessionHash: string;
  /** The person's id in this meeting, shared by all their sockets (see StoredPresence.publicId). */
  publicId: string;
  socket: WebSocket;
  /** Until the welcome is sent, live signals wait here so none is lost between snapshot and subscription. */
  ready: boolean;
  pending: string[];
  /** Frames of one socket are handled one after the other, so a sender's messages keep their order. */
  queue: Promise<void>;
  bucket: TokenBucket;
  /** Captions have their own, faster budget: the interpreter's line goes out several times a second while typing. */
  captionBucket: TokenBucket;
  flood: FloodGuard;
  toldToSlowDown: boolean;
  closed: boolean;
  /** Answered the last ping; a socket that misses one is dead (no FIN ever came) and is dropped. */
  alive: boolean;
}

export interface ChatHubOptions {
  now: () => Date;
  isMeetingOver(meetingId: string): Promise<boolean>;
  /** The sessions behind the sockets: a logout (any process) or an expiry closes them (SessionWatch, as /media). */
  sessions: WatchedSessions;
  /**
   * Whether a connected member still belongs to the meeting, asked when the booking changed: 'removed' (no longer
   * a participant, or no longer this participant), 'deleted' (the meeting is gone) or 'ok'.
   */
  stillMember?(member: ChatMember): Promise<'ok' | 'removed' | 'deleted' | 'rightsChanged'>;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Felsökning: refusals worth an administrator's attention (a flood, an oversized frame); codes only, no content. */
  recordError?: (meetingId: string, code: string, message: string) => void;
  /** Burst and steady rate per socket; a person typing never reaches them. */
  rate?: { burst: number; perSecond: number };
  /** The same for caption frames (the text interpreter's line, sent as it grows). */
  captionRate?: { burst: number; perSecond: number };
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
  private readonly sessionWatch: SessionWatch;
  private closing = false;
  /** What the frame rules (chat-commands.ts) may do: the store, and saying something to a socket or the meeting. */
  private readonly commands: CommandContext<Connection>;

  constructor(
    private readonly store: ChatStore,
    private readonly options: ChatHubOptions,
  ) {
    this.commands = {
      store,
      now: () => options.now(),
      publish: (meetingId, signal) => this.publish(meetingId, signal),
      notify: (conn, severity, message) => this.notify(conn, severity, message),
      send: (conn, signal) => this.send(conn, signal),
    };
    this.sessionWatch = new SessionWatch(
      options.sessions,
      {
        live: () => [...this.local.values()].flatMap((set) => [...set].map((c): [string, string] => [c.sessionHash, c.sessionToken])),
        ended: (tokenHash) => this.sessionEnded(tokenHash),
      },
      options.sessionCheckMs,
    );
    const sweep = setInterval(() => void this.purgeEnded().catch(() => {}), options.sweepMs ?? 5 * 60_000);
    // A laptop closed mid-call leaves a socket that never says goodbye; without pings it would linger in the list.
    const heartbeat = setInterval(() => this.heartbeat(), options.heartbeatMs ?? 30_000);
    sweep.unref();
    heartbeat.unref();
    this.timers.push(sweep, heartbeat);
  }

  /** Takes over a freshly upgraded socket. Listeners are attached at once: frames may already be on their way. */
  attach(socket: WebSocket, member: ChatMember): void {
    const rate = this.options.rate ?? { burst: 10, perSecond: 3 };
    const captionRate = this.options.captionRate ?? { burst: 30, perSecond: 15 };
    const conn: Connection = {
      ...member,
      id: crypto.randomUUID(),
      sessionHash: sha256(member.sessionToken),
      publicId: publicIdOf(member),
      socket,
      ready: false,
      pending: [],
      queue: Promise.resolve(),
      bucket: new TokenBucket(rate.burst, rate.perSecond, performance.now()),
      // The web client sends a growing line at most every CAPTION_SEND_MS (100 ms: 10 a second) plus one per Enter.
      captionBucket: new TokenBucket(captionRate.burst, captionRate.perSecond, performance.now()),
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
    const people = byPerson(snapshot.presence, ignored);
    this.send(conn, {
      type: ChatSignalTypes.welcome,
      data: {
        connectionId: conn.publicId,
        participantId: conn.participantId,
        moderator: conn.moderator,
        meetingType: conn.meetingType,
        chatOpen: snapshot.chatOpen,
        history: snapshot.history,
        historySince: historySince(snapshot.historyStarted, snapshot.history, this.options.now()),
        participants: people,
        captions: snapshot.captions,
      },
    });
    conn.ready = true;
    for (const json of conn.pending.splice(0)) this.sendRaw(conn, json);
    // A second tab of someone already listed replaces their entry in the clients' lists instead of adding one.
    const me = people.find((p) => p.connectionId === conn.publicId) ?? { ...publicEntry(this.stored(conn), ignored.has(conn.key)), connectionId: conn.publicId };
    await this.publish(meetingId, { type: ChatSignalTypes.presence, data: { joined: [me], left: [] } });
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
        if (!this.closing) await this.announceLeave(conn);
        // Conference spec §9: meeting content is deleted when the call ends.
        if (remaining === 0 && (await this.options.isMeetingOver(conn.meetingId))) await this.store.clear(conn.meetingId);
      })
      .catch((err) => this.options.log.warn({ err, meetingId: conn.meetingId }, 'chat: leaving failed'))
      .finally(() => this.leaving.delete(done));
    this.leaving.add(done);
  }

  private onFrame(conn: Connection, raw: RawData, isBinary: boolean): void {
    // Frames still arriving after the server closed the socket (a flood's tail) are dropped unread.
    if (conn.closed || conn.socket.readyState !== conn.socket.OPEN) return;
    if (isBinary) return this.refuse(conn, ChatCloseCodes.policy, 'Endast text', 'binary-frame');
    const bytes = Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : raw.byteLength;
    if (bytes > CHAT_MAX_FRAME_BYTES) return this.refuse(conn, ChatCloseCodes.tooBig, 'Meddelandet är för stort', 'frame-too-big');
    // Read before the rate check (a frame is at most 16 KiB), so a caption is charged to the captions' budget.
    const text = Array.isArray(raw) ? Buffer.concat(raw).toString('utf8') : Buffer.from(raw as ArrayBuffer).toString('utf8');
    const command = parseClientFrame(text);
    const now = performance.now();
    if (!(command.kind === 'caption' ? conn.captionBucket : conn.bucket).take(now)) {
      if (conn.flood.refuse(now)) return this.refuse(conn, ChatCloseCodes.policy, 'För många meddelanden', 'flood');
      if (!conn.toldToSlowDown) this.notify(conn, 'ERROR', CHAT_TEXTS.rateLimited);
      conn.toldToSlowDown = true;
      return;
    }
    conn.toldToSlowDown = false;
    conn.queue = conn.queue
      .then(() => (conn.closed ? undefined : this.handle(conn, command)))
      .catch((err) => {
        this.options.log.error({ err, meetingId: conn.meetingId }, 'chat: frame failed');
        this.notify(conn, 'ERROR', 'Meddelandet kunde inte skickas. Försök igen.');
      });
  }

  /** Closes a socket that broke the rules, and tells Felsökning (the reason, never what was sent). */
  private refuse(conn: Connection, code: number, reason: string, errorCode: string): void {
    this.options.recordError?.(conn.meetingId, errorCode, `Chattanslutning stängd: ${reason}${conn.moderator ? ' (moderator)' : ''}`);
    conn.socket.close(code, reason);
  }

  private handle(conn: Connection, command: ChatCommand): Promise<void> {
    return handleCommand(this.commands, conn, command);
  }

  /**
   * The booking of a meeting changed (participants removed, meeting deleted): this process's sockets of the meeting
   * are checked again. Every process hears the change itself (MeetingEvents, through the cluster bus).
   */
  async membershipChanged(meetingId: string): Promise<void> {
    const check = this.options.stillMember;
    if (!check) return;
    for (const conn of [...(this.local.get(meetingId) ?? [])]) {
      const verdict = await check(conn).catch((err) => {
        this.options.log.warn({ err, meetingId }, 'chat: membership check failed');
        return 'ok' as const;
      });
      if (verdict === 'ok' || conn.closed) continue;
      if (verdict === 'rightsChanged') {
        conn.socket.close(ChatCloseCodes.rightsChanged, 'Behörigheterna har ändrats');
        continue;
      }
      conn.socket.close(ChatCloseCodes.removed, verdict === 'deleted' ? CHAT_REMOVED_REASONS.deleted : CHAT_REMOVED_REASONS.removed);
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

  /**
   * A socket has gone. The person leaves the lists only with their last socket; while another tab stays, only a
   * hand that went down with this socket is announced.
   */
  private async announceLeave(conn: Connection): Promise<void> {
    const { presence } = await this.store.snapshot(conn.meetingId);
    const rest = presence.filter((p) => personId(p) === conn.publicId);
    if (!rest.length) return this.publish(conn.meetingId, { type: ChatSignalTypes.presence, data: { joined: [], left: [conn.publicId] } });
    // Idempotent on the clients: the person's hand as it is now (it may have been this socket's).
    await this.publish(conn.meetingId, { type: ChatSignalTypes.hand, data: { connectionId: conn.publicId, hand: handOf(rest) } });
  }

  private stored(conn: Connection): StoredPresence {
    return {
      connectionId: conn.id,
      publicId: conn.publicId,
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

  /**
   * A socket outlives neither a logout nor an expired session (SessionWatch): its sockets close at once, and
   * nothing more is delivered to them or taken from them.
   */
  private sessionEnded(tokenHash: string): void {
    for (const set of this.local.values()) {
      for (const c of set) {
        if (c.sessionHash !== tokenHash || c.closed) continue;
        c.socket.close(ChatCloseCodes.sessionEnded, 'Sessionen har upphört');
      }
    }
  }

  /** Reads the sessions behind the open sockets again now (the watch does it every minute); tests of expiry call it. */
  checkSessions(): Promise<void> {
    return this.sessionWatch.sweep();
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

  /**
   * Who is connected to a meeting's chat now, across nodes, once per person with their number of sockets (tabs):
   * names and roles only, never the messages (Felsökning).
   */
  async presence(meetingId: string): Promise<{ connectionId: string; participantId: string | null; displayName: string; moderator: boolean; sockets: number }[]> {
    const { presence } = await this.store.snapshot(meetingId);
    return byPerson(presence, new Set()).map(({ connectionId, participantId, displayName, moderator }) => ({
      connectionId,
      participantId,
      displayName,
      moderator,
      sockets: presence.filter((p) => personId(p) === connectionId).length,
    }));
  }

  /**
   * The caption lines the meeting's chat state holds now, across nodes (tests and Felsökning's proof that a call's
   * captions are gone once it is over).
   */
  async captions(meetingId: string): Promise<CaptionLine[]> {
    return (await this.store.snapshot(meetingId)).captions;
  }

  /** This process's sockets and the distinct people behind them, over all meetings (metrics). */
  localTotals(): { sockets: number; people: number } {
    let sockets = 0;
    let people = 0;
    for (const set of this.local.values()) {
      sockets += set.size;
      people += new Set([...set].map((c) => c.publicId)).size;
    }
    return { sockets, people };
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
    this.sessionWatch.stop();
    for (const set of this.local.values()) for (const c of set) c.socket.close(1001, 'Servern startas om');
    for (const set of [...this.local.values()]) for (const c of [...set]) this.detach(c);
    await Promise.allSettled([...this.leaving]);
    await this.store.close();
  }
}
