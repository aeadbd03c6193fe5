import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import { MEDIA_RESUME_GRACE_MS, type ConnectionData, type GetTokenData, type MediaConnection, type MediaServerMessage } from '@videomote/contract/media';
import type { Config } from '../../platform/config.ts';
import type { ClusterBus } from '../../platform/cluster-bus.ts';
import { sha256, type PinCrypto } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { limitsFor } from '../../platform/media-capacity.ts';
import { holderOf } from '../../platform/media-holds.ts';
import { SessionWatch } from '../../platform/session-watch.ts';
import type { SessionStore, SessionUser } from '../../platform/session.ts';
import { meetingErrorRecorder, type MeetingErrorRecorder } from '../admin/meeting-errors.ts';
import { findMeeting, membershipOf } from '../meetings/meeting-membership.ts';
import { capabilitiesFor, seesConnection } from './capabilities.ts';
import { ClusterPresence } from './cluster-presence.ts';
import { CheckRelay } from './janus/check-relay.ts';
import { ECHOTEST } from './janus/check-policy.ts';
import { JanusPool } from './janus/janus-pool.ts';
import { CLOSE_SESSION_ENDED, JanusRelay } from './janus/janus-relay.ts';
import { signJanusToken } from './janus/janus-token.ts';
import { UpstreamWarmer } from './janus/upstream-warmer.ts';
import { LiveConnections, newLiveConnection, view, type LiveConnection } from './live-connections.ts';
import { admit, Admissions, participantIdOf, stillAdmitted, type MediaAdmission } from './media-admission.ts';
import { MediaKeys } from './media-keys.ts';
import { MediaModeration, type ModerationAction } from './media-moderation.ts';
import { errorText, MediaRooms } from './media-rooms.ts';
import { relayHooks } from './relay-hooks.ts';
import { iceServersFor, turnExpiry, turnUser } from './turn-credentials.ts';

export type { MediaAdmission } from './media-admission.ts';

/** How often connections are looked over for TURN credentials due for renewal (they change once per half lifetime). */
const TURN_RENEW_CHECK_MS = 60_000;

/** What the media module needs from the app; it never sees the rest (CONVENTIONS: dependencies point inward). */
export interface MediaDeps {
  config: Config;
  db: Db;
  pins: PinCrypto;
  /** Sessions are checked at admission and while connected (a logged-out participant's sockets close). */
  sessions: SessionStore;
  now: () => Date;
  /** Moderation and connection lists travel between the server processes behind the load balancer. */
  bus: ClusterBus;
}

/**
 * The media module's surface for the routes: tokens, the `/media` sockets wired to Janus, moderation, and what the
 * booking's changes do to live connections. The work is done by admission (media-admission.ts), the rooms
 * (media-rooms.ts), this process's connections (live-connections.ts), the other nodes' (cluster-presence.ts),
 * moderation (media-moderation.ts) and each relay's hooks (relay-hooks.ts).
 */
export class MediaService {
  readonly pool: JanusPool;
  readonly keys: MediaKeys;
  private readonly rooms: MediaRooms;
  private readonly admissions: Admissions;
  private readonly live = new LiveConnections();
  private readonly presence: ClusterPresence;
  private readonly moderation: MediaModeration;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly sessionWatch: SessionWatch;
  /** Felsökning's recent errors: what failed with Janus for a meeting (codes and Janus's reason, never secrets). */
  private readonly recordError: MeetingErrorRecorder;
  /** An open socket to each Janus ahead of the next connection (upstream-warmer.ts). */
  private readonly upstreams = new UpstreamWarmer();

  constructor(
    private readonly deps: MediaDeps,
    private readonly log: FastifyBaseLogger,
  ) {
    this.pool = new JanusPool(deps.config, log);
    this.recordError = meetingErrorRecorder(deps.db, deps.now, log);
    this.keys = new MediaKeys(deps.db, deps.pins);
    const live = this.live;
    this.rooms = new MediaRooms({ ...deps, pool: this.pool, log, recordError: this.recordError, inUse: (meetingId) => live.count(meetingId) > 0 });
    this.admissions = new Admissions({ ...deps, rooms: this.rooms, keys: this.keys, log, recordError: this.recordError });
    // Participants of one meeting on different nodes see each other's connections (and so subscribe to their feeds).
    this.presence = new ClusterPresence({
      bus: deps.bus,
      now: deps.now,
      clustered: Boolean(deps.config.redisUrl),
      held: () => live.held(),
      holdTotals: () => live.holdTotals(),
      deliver: (meetingId, publishes, message) => live.deliverAbout(meetingId, publishes, message),
      changed: (meetingId) => this.syncProtection(meetingId),
    });
    this.moderation = new MediaModeration({ ...deps, clustered: Boolean(deps.config.redisUrl), log, live, rooms: this.rooms, announce: (entry, message) => this.announce(entry, message) });
    // A laptop closed mid-call leaves a socket that never says goodbye, holding its place under the caps.
    const heartbeat = setInterval(() => live.each((c) => c.relay.heartbeat()), deps.config.mediaHeartbeatSeconds * 1000);
    const turnRenewal = setInterval(() => this.renewTurn(), Math.min(TURN_RENEW_CHECK_MS, deps.config.turnTtlMs / 4));
    heartbeat.unref();
    turnRenewal.unref();
    this.timers.push(heartbeat, turnRenewal);
    // A logout (any process) or an expired session closes the session's sockets: the watch chat shares.
    this.sessionWatch = new SessionWatch(deps.sessions, {
      live: () => {
        const sessions: [string, string][] = [];
        live.each((c) => sessions.push([c.sessionHash, c.sessionToken]));
        return sessions;
      },
      ended: (tokenHash) => this.sessionEnded(tokenHash),
    });
  }

  /** A logout, in this process or another (cluster bus): the session's `/media` sockets close at once. */
  sessionEnded(tokenHash: string): void {
    this.live.each((c) => {
      if (c.sessionHash === tokenHash) void this.moderation.eject(c, CLOSE_SESSION_ENDED, 'session ended');
    });
  }

  /**
   * SECURITY: TURN credentials live config.turnTtlMs (2 h by default) at most; a connected person gets fresh ones on their socket
   * whenever the expiry moves on (turnExpiry's steps), so TURN keeps working through a long call while nobody holds
   * a credential valid beyond a few hours. Answers how many sockets were sent new ones.
   */
  renewTurn(): number {
    let sent = 0;
    const { config } = this.deps;
    if (!config.turnSecret || !config.turnUrls.length) return 0;
    const expiry = turnExpiry(this.deps.now().getTime(), config.turnTtlMs);
    this.live.each((c) => {
      if (expiry === c.turnExpiry) return;
      c.turnExpiry = expiry;
      const iceServers = iceServersFor(config, turnUser(c.connection.participantId, c.user.subject), expiry);
      c.relay.sendOwn({ videomote: 'iceServers', iceServers } satisfies MediaServerMessage);
      sent += 1;
    });
    return sent;
  }

  /** `requestedName` is not used: the media name is always the checked one of the booking or the visitor's session. */
  getToken(user: SessionUser, meetingId: string, consent = false): Promise<GetTokenData> {
    return this.admissions.token(user, meetingId, consent);
  }

  /** Checks a `/media` upgrade: the cookie's user, a valid token for this meeting and user, and membership. */
  admitSocket(session: { user: SessionUser; token: string } | null, meetingId: string, token: string | undefined, check = false): Promise<MediaAdmission> {
    return this.admissions.socket(session, meetingId, token, check);
  }

  /**
   * The lobby's connection check: a socket to the meeting's Janus (the one the call will use) that may only reach
   * the echo plugin (check-policy). Nothing is announced, no key is handed out.
   */
  async connectCheck(socket: WebSocket, admission: MediaAdmission, takeEarly: () => string[]): Promise<void> {
    const { control } = await this.rooms.onJanus(admission.membership.meeting);
    const tokenSecret = control.info.tokenSecret;
    // Janus's wall clock judges its tokens, not the app's (movable in tests): Date.now(), as janus-control's.
    new CheckRelay(socket, { upstreamUrl: control.info.url, janusToken: () => signJanusToken(tokenSecret, Date.now() / 1000 + 600, [ECHOTEST]) }, takeEarly());
  }

  /**
   * Wires an admitted browser socket to Janus through the policy-checked relay and announces it. `endToEnd`: whether
   * the browser encrypts its media end to end (false: it has no encoded transforms, see media-protection.ts).
   */
  async connect(socket: WebSocket, admission: MediaAdmission, takeEarly: () => string[] = () => [], resumeKey: string | null = null, endToEnd = true): Promise<void> {
    const { membership, claims, user } = admission;
    const meetingId = membership.meeting.id;
    if (resumeKey && this.resume(socket, admission, resumeKey, takeEarly)) return;
    const { room, control } = await this.rooms.onJanus(membership.meeting);
    // Before the relay is wired: from then on until takeEarly nothing may wait (see media.routes).
    const capabilities = capabilitiesFor(membership, user.features);
    const participantId = participantIdOf(membership);
    const display: ConnectionData = { particpantId: participantId, displayName: claims.n };
    const connection: MediaConnection = {
      connectionId: crypto.randomUUID(),
      participantId,
      displayName: claims.n,
      feedId: null,
      screenFeedId: null,
      hasAudio: false,
      hasVideo: false,
      moderator: membership.kind === 'participant' && membership.participant.isAdmin,
      endToEnd,
    };
    const { connectionId } = connection;
    const tokenSecret = control.info.tokenSecret;
    const personKey = participantId ? `p:${participantId}` : `v:${user.subject}`;
    const holder = admission.holder ?? holderOf(user, sha256(admission.sessionToken), 'unknown');
    const limits = limitsFor(membership.meeting.type, this.deps.config.mediaLimits);
    const holdCaps = this.deps.config.mediaHoldCaps;
    let entry: LiveConnection | null = null;
    const relay: JanusRelay = new JanusRelay(socket, {
      upstreamUrl: control.info.url,
      upstream: this.upstreams.take(control.info.url),
      // Janus's wall clock judges its tokens, not the app's (movable in tests).
      janusToken: () => signJanusToken(tokenSecret, Date.now() / 1000 + 3600),
      context: {
        roomId: room.janusRoomId,
        capabilities,
        display: JSON.stringify(display),
        peerConnections: () => this.live.usage(meetingId, personKey, relay, limits),
        holds: () => ({ held: this.presence.addHolds(this.live.heldBy(holder, relay), holder), caps: { handles: holdCaps.handles, peerConnections: holdCaps.peerConnections } }),
        otherScreenShare: () => this.live.screenSharer(meetingId, connectionId) !== null,
        roomFeed: (feedId) => this.live.publishes(meetingId, feedId) || this.presence.publishes(meetingId, feedId),
      },
      resumeGraceMs: resumeKey ? MEDIA_RESUME_GRACE_MS : 0,
      hooks: relayHooks({
        meetingId,
        connectionId,
        entry: () => entry,
        live: this.live,
        presence: this.presence,
        moderation: this.moderation,
        rooms: this.rooms,
        log: this.log,
        recordError: this.recordError,
        announce: (e, message) => this.announce(e, message),
        kickFeed: (feedId) => control.kick(room.janusRoomId, room.secret, feedId),
        syncProtection: () => this.syncProtection(meetingId),
      }),
    });
    const me = newLiveConnection({ connection, relay, capabilities, user, personKey, meetingId, meetingType: membership.meeting.type, sessionToken: admission.sessionToken, resumeKey, holder });
    entry = me;
    const early = takeEarly();
    if (socket.readyState !== socket.OPEN) return relay.close();
    this.announce(me, { videomote: 'connectionCreated', connection: view(me) });
    this.live.add(me);
    this.greet(me, early, false);
    // The key may have been replaced since this browser's gettoken: the current one follows once read (and this
    // browser recorded as its holder again). Not awaited before the hello above: the browser holds gettoken's key,
    // and its Janus requests waited behind these two database calls (44 ms of a join in the media bench's ladder).
    // A replacement pushed meanwhile (pushMediaKey) is not rolled back.
    try {
      const mediaKey = await this.keys.handTo(membership, user);
      if (mediaKey.epoch > me.keyEpoch && socket.readyState === socket.OPEN) {
        relay.sendOwn({ videomote: 'mediaKey', ...mediaKey } satisfies MediaServerMessage);
        me.keyEpoch = mediaKey.epoch;
      }
    } catch (err) {
      // gettoken recorded the holder and handed the key; the call goes on with it.
      this.log.warn({ err, meetingId }, 'media key not refreshed at connect');
    }
  }

  /**
   * A new socket of a browser whose connection is still held (its old socket broke, or hangs after an address
   * change): the same user with the key it chose gets the same connection back — same id, Janus session and
   * feeds — so nothing is published or subscribed twice and the others see no one leave.
   */
  private resume(socket: WebSocket, admission: MediaAdmission, resumeKey: string, takeEarly: () => string[]): boolean {
    const entry = this.live.resumable(admission.membership.meeting.id, resumeKey, admission.user.subject);
    if (!entry || !entry.relay.resume(socket)) return false;
    // A resumed page may have slept past its credentials' expiry: it gets the current ones again.
    entry.turnExpiry = 0;
    this.greet(entry, takeEarly(), true);
    return true;
  }

  /** A socket's first messages (the hello with every connection it may see, its protection, TURN), then its early ones. */
  private greet(entry: LiveConnection, early: string[], resumed: boolean): void {
    const remote = this.presence.connections(entry.meetingId, (publish) => seesConnection(entry.meetingType, entry.capabilities, { publish }));
    entry.relay.sendOwn(this.live.hello(entry, remote, resumed));
    this.syncProtection(entry.meetingId, entry);
    this.renewTurn();
    for (const text of early) entry.relay.receive(text);
  }

  /** Tells everyone who may see `subject` (here, and the other nodes with what they need to apply the same rule). */
  private announce(subject: LiveConnection, message: MediaServerMessage): void {
    this.live.tellAbout(subject, message);
    this.presence.tell(subject.meetingId, message, subject.capabilities.publish);
  }

  private syncProtection(meetingId: string, newcomer?: LiveConnection): void {
    this.live.syncProtection(meetingId, this.presence.connections(meetingId), newcomer);
  }

  /** Felsökning: a browser's /media socket could not be wired to Janus. */
  recordConnectFailure(meetingId: string, err: unknown): void {
    this.recordError(meetingId, 'media', 'connect-failed', `Anslutningen till mediaservern misslyckades: ${errorText(err)}`);
  }

  /** What this process relays now: `/media` connections and the feeds they publish (cameras and screens). */
  localTotals(): { connections: number; publishers: number } {
    return this.live.totals();
  }

  /** Connections currently in a meeting's media session on this process (for tests and moderation). */
  connections(meetingId: string): MediaConnection[] {
    return this.live.in(meetingId).map(view);
  }

  /** The ids of other nodes' connections in a meeting that this node still counts (for tests). */
  remoteConnectionIds(meetingId: string): string[] {
    return this.presence.ids(meetingId);
  }

  /** Screen-share takeover: stops another participant's screen share with the room secret. */
  forceUnpublish(user: SessionUser, meetingId: string, connectionId: string): Promise<void> {
    return this.moderate(user, meetingId, connectionId, 'forceUnpublish');
  }

  /**
   * A meeting admin force-mutes another connection's microphone (spec §4 Forced mute, §6): Janus stops relaying
   * the feed's audio (VideoRoom `moderate` with the room secret), so it holds even against a modified browser,
   * and the owner's page switches the microphone off and shows the banner.
   */
  forceMute(user: SessionUser, meetingId: string, connectionId: string): Promise<void> {
    return this.moderate(user, meetingId, connectionId, 'forceMute');
  }

  /** A meeting admin removes a connection: its feeds are kicked with the room secret, then its socket closes. */
  kick(user: SessionUser, meetingId: string, connectionId: string): Promise<void> {
    return this.moderate(user, meetingId, connectionId, 'kick');
  }

  private async moderate(user: SessionUser, meetingId: string, connectionId: string, action: ModerationAction): Promise<void> {
    return this.moderation.moderate(await admit(this.deps.db, user, meetingId), user.features, connectionId, action);
  }

  /** The booking changed: this process's connections of people no longer in it are removed (media-moderation.ts). */
  recheckMembership(meetingId: string): Promise<number> {
    return this.moderation.recheck(meetingId);
  }

  /**
   * The meeting's key was replaced: this process's connections get the new one, each checked against the booking
   * first (the removed one may still be connected here, waiting for its own membership check to close it).
   */
  async pushMediaKey(meetingId: string): Promise<number> {
    const conns = this.live.in(meetingId);
    if (!conns.length) return 0;
    const meeting = await findMeeting(this.deps.db, meetingId);
    if (!meeting) return 0;
    const key = await this.keys.current(meeting);
    let sent = 0;
    for (const c of conns) {
      if (c.keyEpoch >= key.epoch) continue;
      if (!stillAdmitted(await membershipOf(this.deps.db, meetingId, c.user), c.connection.participantId)) continue;
      c.relay.sendOwn({ videomote: 'mediaKey', ...key } satisfies MediaServerMessage);
      c.keyEpoch = key.epoch;
      sent += 1;
    }
    return sent;
  }

  /** Destroys the rooms of meetings that are over and empty. */
  sweep(): Promise<number> {
    return this.rooms.sweep();
  }

  /** Which Janus room holds the meeting, for Felsökning: its number and instance only; the secret stays here. */
  roomOf(meetingId: string): Promise<{ janusRoomId: number; instance: string } | null> {
    return this.rooms.roomOf(meetingId);
  }

  async close(): Promise<void> {
    this.rooms.close();
    for (const t of this.timers) clearInterval(t);
    this.sessionWatch.stop();
    this.presence.close();
    this.live.each((c) => c.relay.close(1001, 'server stopping'));
    this.live.clear();
    this.upstreams.close();
    await this.pool.close();
  }
}
