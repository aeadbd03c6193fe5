import type { VideoLayers } from '@videomote/contract/identity';
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import { MEDIA_RESUME_GRACE_MS, type Capabilities, type ConnectionData, type GetTokenData, type InvitedParticipant, type MediaConnection, type MediaServerMessage } from '@videomote/contract/media';
import { PRESENTER_ROLES } from '@videomote/contract/participant-roles';
import type { Config } from '../../platform/config.ts';
import type { ClusterBus } from '../../platform/cluster-bus.ts';
import type { PinCrypto } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import type { SessionStore } from '../../platform/session.ts';
import { AppError, forbidden, notFound, validationError, conflict } from '../../platform/errors.ts';
import type { SessionUser } from '../../platform/session.ts';
import { findMeeting, listMembers, membershipOf, type MeetingSummary, type Membership } from '../meetings/meeting-membership.ts';
import { capabilitiesFor, sameCapabilities, seesConnection } from './capabilities.ts';
import { limitsFor, ROOM_PUBLISHERS } from '../../platform/media-capacity.ts';
import { signMediaToken, verifyMediaToken, type MediaTokenClaims } from './media-token.ts';
import { deleteRoom, findRoom, insertRoom, moveRoom, roomsOfEndedMeetings, roomsPerInstance, type RoomRecord } from './media.repository.ts';
import { JanusPool } from './janus/janus-pool.ts';
import { JanusError } from './janus/janus-control.ts';
import { CLOSE_KICKED, CLOSE_RIGHTS_CHANGED, CLOSE_SESSION_ENDED, JanusRelay } from './janus/janus-relay.ts';
import { UpstreamWarmer } from './janus/upstream-warmer.ts';
import type { HoldUsage, PeerConnectionUsage } from './janus/relay-policy.ts';
import { sha256 } from '../../platform/crypto.ts';
import { signJanusToken } from './janus/janus-token.ts';
import { CheckRelay } from './janus/check-relay.ts';
import { ECHOTEST } from './janus/check-policy.ts';
import { iceServersFor, turnExpiry, turnUser } from './turn-credentials.ts';
import { meetingErrorRecorder, type MeetingErrorRecorder } from '../admin/meeting-errors.ts';
import { recordConsent, requireConsent } from '../lobby/lobby.service.ts';
import { MediaKeys } from './media-keys.ts';
import { meetingEndToEnd } from './media-protection.ts';
import { withoutLeftFeed } from './remote-feed-left.ts';
import { SessionWatch } from '../../platform/session-watch.ts';
import { holderOf, type Holder, type HoldScope } from '../../platform/media-holds.ts';

const TOKEN_HOURS = 12;
const SWEEP_MS = 60_000;
/** How often connections are looked over for TURN credentials due for renewal (they change once per half lifetime). */
const TURN_RENEW_CHECK_MS = 60_000;

interface LiveConnection {
  connection: MediaConnection;
  relay: JanusRelay;
  capabilities: Capabilities;
  /** Publisher handle of the camera, and of a second publisher (the screen share). */
  cameraHandle: number | null;
  screenHandle: number | null;
  screenFeedId: number | null;
  /** Audio mids Janus stopped relaying on a forced mute; let through again when the owner turns the microphone on. */
  mutedMids: string[];
  /** Who was admitted, so a change of the booking can be checked against them again (recheckMembership). */
  user: SessionUser;
  /** The person behind the socket in this meeting (participant id, or the visitor's subject): their tabs share one budget. */
  personKey: string;
  meetingId: string;
  meetingType: 0 | 1;
  /** The session behind the socket, and its hash (how a logout on another process names it): its end closes the socket. */
  sessionToken: string;
  sessionHash: string;
  /** The key the browser chose for this connection: with it (and the same user) a new socket resumes it. */
  resumeKey: string | null;
  /** The epoch of the media key this connection was last handed (0: none yet). */
  keyEpoch: number;
  /** The expiry of the TURN credentials this socket was last sent (0: none yet); see renewTurn. */
  turnExpiry: number;
  /** Who holds the socket across meetings: their handles and PeerConnections count together (media-holds.ts). */
  holder: Holder;
}

/** What a meeting admin may do to another connection, and the capability it needs. */
type ModerationAction = 'forceUnpublish' | 'forceMute' | 'kick';
const MODERATION_NEEDS: Record<ModerationAction, keyof Capabilities> = { forceUnpublish: 'forceUnpublish', forceMute: 'forceDisconnect', kick: 'forceDisconnect' };
/** How often a node tells the others which connections it holds, and after how long without that one is gone. */
const ANNOUNCE_MS = 5_000;
const HOLD_SCOPES: HoldScope[] = ['person', 'session', 'address'];
const REMOTE_EXPIRY_MS = 3 * ANNOUNCE_MS;

/** How long a node waits for the node holding a connection to carry out a moderation. */
const MODERATION_ANSWER_MS = 3_000;

export interface MediaAdmission {
  membership: Membership;
  claims: MediaTokenClaims;
  user: SessionUser;
  sessionToken: string;
  /** Who holds the socket across meetings (person, session, address), and its socket hold (media-socket-holds.ts). */
  holder?: Holder;
  holdId?: string;
}

/**
 * The media module's rules: tokens and capabilities, one VideoRoom per meeting (created on demand, recreated
 * after a Janus restart, destroyed once the meeting is over and empty), the per-meeting list of live connections
 * announced on `/media`, and the moderation the server performs with the room secret.
 */
/** Another node's connection as it announced it, with whether it may publish (who may see it) and when heard of. */
interface RemoteConnection {
  connection: MediaConnection;
  publish: boolean;
  seen: number;
}

interface HeldConnection {
  connection: MediaConnection;
  publish: boolean;
}

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

export class MediaService {
  readonly pool: JanusPool;
  private readonly live = new Map<string, Map<string, LiveConnection>>();
  private readonly roomReady = new Map<string, Promise<RoomRecord>>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly sessionWatch: SessionWatch;
  private readonly moderationsWaiting = new Map<string, { resolve(): void; reject(err: Error): void }>();
  /** Connections other nodes hold, per meeting, with when they last said so (a killed node says nothing more). */
  private readonly remote = new Map<string, Map<string, RemoteConnection>>();
  private announceTimer: NodeJS.Timeout | null = null;
  /** What the other nodes hold per holder key ([handles, PeerConnections]), by node, with when they last said so. */
  private readonly remoteHolds = new Map<string, { seen: number; counts: Record<string, [number, number]> }>();
  private readonly nodeId = crypto.randomUUID();
  /** Meetings whose media is protected in transit only now (a browser without encoded transforms is in them). */
  private readonly transitOnly = new Set<string>();
  /** Felsökning's recent errors: what failed with Janus for a meeting (codes and Janus's reason, never secrets). */
  private readonly recordError: MeetingErrorRecorder;
  readonly keys: MediaKeys;
  /** An open socket to each Janus ahead of the next connection (upstream-warmer.ts). */
  private readonly upstreams = new UpstreamWarmer();

  constructor(
    private readonly deps: MediaDeps,
    private readonly log: FastifyBaseLogger,
  ) {
    this.pool = new JanusPool(deps.config, log);
    // Behind the proxy the moderator and the participant are often on different nodes: the node holding the
    // participant's /media connection carries out what another node has authorised, and answers.
    deps.bus.on('media-moderation', (raw) => void this.moderateForAnotherNode(raw));
    // Participants of one meeting on different nodes see each other's connections (and so subscribe to their feeds).
    deps.bus.on('media-connections', (raw) => this.fromAnotherNode(raw));
    // What another node's sockets hold per person, session and address: the caps count across nodes (media-holds.ts).
    deps.bus.on('media-holds', (raw) => {
      const { node, counts } = JSON.parse(raw) as { node: string; counts: Record<string, [number, number]> };
      this.remoteHolds.set(node, { seen: Date.now(), counts });
    });
    if (deps.config.redisUrl) {
      this.announceTimer = setInterval(() => this.announce(), ANNOUNCE_MS);
      this.announceTimer.unref();
    }
    deps.bus.on('media-moderation-answers', (raw) => {
      const answer = JSON.parse(raw) as { id: string; error: { code: AppError['code']; message: string } | null };
      const waiting = this.moderationsWaiting.get(answer.id);
      if (!waiting) return;
      this.moderationsWaiting.delete(answer.id);
      if (answer.error) waiting.reject(new AppError(answer.error.code, answer.error.message));
      else waiting.resolve();
    });
    this.recordError = meetingErrorRecorder(deps.db, deps.now, log);
    this.keys = new MediaKeys(deps.db, deps.pins);
    // A restarted Janus has no rooms: forget which we created so the next use recreates them.
    this.pool.on('restarted', (instance: string) => {
      for (const [meetingId, p] of this.roomReady) {
        p.then((r) => r.instance === instance && this.roomReady.delete(meetingId), () => this.roomReady.delete(meetingId));
      }
    });
    // A laptop closed mid-call leaves a socket that never says goodbye, holding its place under the caps.
    const heartbeat = setInterval(() => this.eachConnection((c) => c.relay.heartbeat()), deps.config.mediaHeartbeatSeconds * 1000);
    const turnRenewal = setInterval(() => this.renewTurn(), Math.min(TURN_RENEW_CHECK_MS, deps.config.turnTtlMs / 4));
    heartbeat.unref();
    turnRenewal.unref();
    this.timers.push(heartbeat, turnRenewal);
    // A logout (any process) or an expired session closes the session's sockets: the watch chat shares.
    this.sessionWatch = new SessionWatch(deps.sessions, {
      live: () => {
        const live: [string, string][] = [];
        this.eachConnection((c) => live.push([c.sessionHash, c.sessionToken]));
        return live;
      },
      ended: (tokenHash) => this.sessionEnded(tokenHash),
    });
  }

  private eachConnection(fn: (c: LiveConnection) => void): void {
    for (const conns of this.live.values()) for (const c of [...conns.values()]) fn(c);
  }

  /** A logout, in this process or another (cluster bus): the session's `/media` sockets close at once. */
  sessionEnded(tokenHash: string): void {
    this.eachConnection((c) => {
      if (c.sessionHash !== tokenHash) return;
      void this.removeFeeds(c).finally(() => c.relay.close(CLOSE_SESSION_ENDED, 'session ended'));
    });
  }

  /**
   * SECURITY: TURN credentials live config.turnTtlMs (2 h by default) at most; a connected person gets fresh ones on their socket
   * whenever the expiry moves on (turnExpiry's steps), so TURN keeps working through a long call while nobody holds
   * a credential valid beyond a few hours. Answers how many sockets were sent new ones.
   */
  renewTurn(): number {
    let sent = 0;
    if (!this.deps.config.turnSecret || !this.deps.config.turnUrls.length) return 0;
    const now = this.deps.now().getTime();
    this.eachConnection((c) => {
      const expiry = turnExpiry(now, this.deps.config.turnTtlMs);
      if (expiry === c.turnExpiry) return;
      c.turnExpiry = expiry;
      const iceServers = iceServersFor(this.deps.config, turnUser(c.connection.participantId, c.user.subject), expiry);
      c.relay.sendOwn({ videomote: 'iceServers', iceServers } satisfies MediaServerMessage);
      sent += 1;
    });
    return sent;
  }

  /** `requestedName` is not used: the media name is always the checked one of the booking or the visitor's session. */
  async getToken(user: SessionUser, meetingId: string, consent = false): Promise<GetTokenData> {
    const membership = await this.admit(user, meetingId);
    const displayName = this.displayNameFor(membership, user);
    if (consent) await recordConsent(this.deps.db, membership, this.deps.now());
    else await requireConsent(this.deps.db, membership);
    const capabilities = capabilitiesFor(membership, user.features);
    const claims: MediaTokenClaims = { m: membership.meeting.id, sub: user.subject, n: displayName, exp: this.deps.now().getTime() + TOKEN_HOURS * 3600_000 };
    let room: RoomRecord | null = null;
    try {
      // Bounded: a slow or broken Janus must not hold up the meeting page.
      room = await Promise.race([
        this.ensureRoom(membership.meeting),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('media room not ready within 5 s')), 5_000).unref()),
      ]);
    } catch (err) {
      // The meeting pages work without media; /media retries the room when the browser connects.
      this.log.warn({ err, meetingId }, 'media room not ready at token time');
      this.recordError(membership.meeting.id, 'media', 'room-not-ready', `Mediarummet var inte klart: ${errorText(err)}`);
    }
    const members = await listMembers(this.deps.db, membership.meeting.id);
    const me = membership.kind === 'participant' ? membership.participant.id : null;
    // A webcast visitor learns who presents, not who else was invited.
    const visible = membership.kind === 'visitor' ? members.filter((m) => PRESENTER_ROLES.includes(m.role) || m.isAdmin) : members;
    const participants: InvitedParticipant[] = visible
      .filter((m) => m.isParticipant)
      .map((m) => ({ id: m.id, displayName: m.displayName, role: m.role, moderator: m.isAdmin, currentUser: m.id === me }));
    return {
      tokenData: { token: signMediaToken(this.deps.pins, claims), apiKey: 'janus', sessionId: room ? String(room.janusRoomId) : '' },
      meeting: { type: membership.meeting.type, id: membership.meeting.id, roomId: membership.meeting.roomId, participants },
      capabilities,
      // TURN's user: the participant, or one name per visitor session (turnUser); short-lived, renewed on /media.
      iceServers: iceServersFor(this.deps.config, turnUser(me, user.subject), turnExpiry(this.deps.now().getTime(), this.deps.config.turnTtlMs)),
      // Only here and on the member's own /media socket; see MediaKeys.
      mediaKey: await this.keys.handTo(membership, user),
    };
  }

  /** The meeting's participants and a webcast's visitors; nobody else (404 when no such meeting, else 403). */
  private async admit(user: SessionUser, meetingId: string): Promise<Membership> {
    const membership = await membershipOf(this.deps.db, meetingId, user);
    if (membership) return membership;
    if (!(await findMeeting(this.deps.db, meetingId))) throw notFound('Mötet hittades inte');
    throw forbidden('Du är inte deltagare i det här mötet');
  }

  /**
   * SECURITY: a visitor's media name is the one checked when they entered the webcast (at most 12 characters, kept
   * in their session), never one the browser chooses now: others see it on the stage and in the participant list.
   */
  private displayNameFor(membership: Membership, user: SessionUser): string {
    if (membership.kind === 'participant') return membership.participant.displayName;
    const name = `${user.firstName} ${user.lastName}`.trim();
    if (!name) throw validationError([{ fields: ['displayName'], message: 'Fältet är ej korrekt ifyllt' }]);
    return name;
  }

  /** Checks a `/media` upgrade: the cookie's user, a valid token for this meeting and user, and membership. */
  async admitSocket(session: { user: SessionUser; token: string } | null, meetingId: string, token: string | undefined, check = false): Promise<MediaAdmission> {
    if (!session) throw forbidden('Du är inte inloggad');
    const { user } = session;
    const claims = token ? verifyMediaToken(this.deps.pins, token, this.deps.now()) : null;
    if (!claims || claims.m !== meetingId || claims.sub !== user.subject) throw forbidden('Ogiltig mediabiljett');
    // SECURITY: a connection check's token (no consent needed) never opens the call, nor a call's token a check.
    if ((claims.k === 'check') !== check) throw forbidden('Ogiltig mediabiljett');
    const membership = await this.admit(user, meetingId);
    return { membership, claims, user, sessionToken: session.token };
  }

  async ensureRoom(meeting: MeetingSummary): Promise<RoomRecord> {
    const cached = this.roomReady.get(meeting.id);
    if (cached) return cached;
    const p = (async () => {
      let room = await findRoom(this.deps.db, meeting.id);
      if (!room || !this.pool.ids().includes(room.instance)) {
        const instance = this.pool.leastLoaded(await roomsPerInstance(this.deps.db));
        if (room) await deleteRoom(this.deps.db, meeting.id); // its instance is no longer configured
        room = await insertRoom(this.deps.db, {
          meetingId: meeting.id,
          // Below 2^48 so the id survives JSON numbers in every client.
          janusRoomId: crypto.randomInt(1, 2 ** 48),
          secret: crypto.randomBytes(24).toString('base64url'),
          instance,
        });
      }
      room = await this.failOver(meeting.id, room);
      const control = await this.pool.get(room.instance);
      if (!(await control.roomExists(room.janusRoomId))) {
        try {
          await control.createRoom(room.janusRoomId, room.secret, {
            publishers: ROOM_PUBLISHERS,
            description: meeting.id,
            requireE2ee: true,
            bitrate: publisherBitrateCap(this.deps.config.videoLayers),
          });
          this.log.info({ meetingId: meeting.id, instance: room.instance }, 'media room created');
        } catch (err) {
          if (!(err instanceof JanusError && err.code === 427)) {
            this.recordError(meeting.id, 'media', 'room-create-failed', `Mediarummet kunde inte skapas: ${errorText(err)}`);
            throw err;
          }
          // 427: another server process created it first
        }
      }
      this.startSweeping();
      return room;
    })();
    this.roomReady.set(meeting.id, p);
    p.catch(() => this.roomReady.delete(meeting.id));
    return p;
  }

  /**
   * A room on a Janus of the pool that no longer answers moves to the least loaded one that does (same room id and
   * secret); the browsers' media reconnect (their relays closed with the dead Janus) then lands there.
   */
  private async failOver(meetingId: string, room: RoomRecord): Promise<RoomRecord> {
    if (this.pool.ids().length < 2 || (await this.pool.answers(room.instance))) return room;
    const alive: string[] = [];
    for (const id of this.pool.ids()) if (id !== room.instance && (await this.pool.answers(id))) alive.push(id);
    if (!alive.length) return room;
    const to = this.pool.leastLoaded(await roomsPerInstance(this.deps.db), alive);
    const moved = (await moveRoom(this.deps.db, meetingId, room.instance, to)) ?? room;
    this.log.warn({ meetingId, from: room.instance, to: moved.instance }, 'media room moved off an unreachable janus');
    this.recordError(meetingId, 'media', 'room-moved', 'Mediaservern svarade inte; mötet flyttades till en annan mediaserver');
    return moved;
  }

  /**
   * The lobby's connection check: a socket to the meeting's Janus (the one the call will use) that may only reach
   * the echo plugin (check-policy). Nothing is announced, no key is handed out.
   */
  async connectCheck(socket: WebSocket, admission: MediaAdmission, takeEarly: () => string[]): Promise<void> {
    const room = await this.ensureRoom(admission.membership.meeting);
    const control = await this.pool.get(room.instance);
    const tokenSecret = control.info.tokenSecret;
    new CheckRelay(socket, { upstreamUrl: control.info.url, janusToken: () => signJanusToken(tokenSecret, Date.now() / 1000 + 600, [ECHOTEST]) }, takeEarly());
  }

  /**
   * Wires an admitted browser socket to Janus through the policy-checked relay and announces it. `endToEnd`: whether
   * the browser encrypts its media end to end (false: it has no encoded transforms, see media-protection.ts).
   */
  async connect(socket: WebSocket, admission: MediaAdmission, takeEarly: () => string[] = () => [], resumeKey: string | null = null, endToEnd = true): Promise<void> {
    const { membership, claims } = admission;
    const meetingId = membership.meeting.id;
    if (resumeKey && this.resume(socket, admission, resumeKey, takeEarly)) return;
    const room = await this.ensureRoom(membership.meeting);
    const control = await this.pool.get(room.instance);
    // Before the relay is wired: from then on until takeEarly nothing may wait (see media.routes).
    const capabilities = capabilitiesFor(membership, admission.user.features);
    const participantId = membership.kind === 'participant' ? membership.participant.id : null;
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
    const tokenSecret = control.info.tokenSecret;
    const personKey = participantId ? `p:${participantId}` : `v:${admission.user.subject}`;
    const holder = admission.holder ?? holderOf(admission.user, sha256(admission.sessionToken), 'unknown');
    const limits = limitsFor(membership.meeting.type, this.deps.config.mediaLimits);
    let entry: LiveConnection | null = null;
    const relay: JanusRelay = new JanusRelay(socket, {
      upstreamUrl: control.info.url,
      upstream: this.upstreams.take(control.info.url),
      janusToken: () => signJanusToken(tokenSecret, Date.now() / 1000 + 3600),
      context: {
        roomId: room.janusRoomId,
        capabilities,
        display: JSON.stringify(display),
        peerConnections: (): PeerConnectionUsage => this.usage(meetingId, personKey, relay, limits),
        holds: (): HoldUsage => this.holdUsage(holder, relay),
        otherScreenShare: () => this.screenSharer(meetingId, connection.connectionId) !== null,
        roomFeed: (feedId) => this.isRoomFeed(meetingId, feedId),
      },
      resumeGraceMs: resumeKey ? MEDIA_RESUME_GRACE_MS : 0,
      hooks: {
        onPublished: (handleId, feedId, videoType) => {
          if (!entry) return;
          // The relay refuses a tagged screen publish that breaks the rules; an untagged second publisher would be
          // announced as a screen share below, so the same rules hold for it here: its feed is kicked instead.
          const asScreen = videoType === 'screen' || (entry.cameraHandle !== null && entry.cameraHandle !== handleId);
          if (asScreen && (!capabilities.screenShare || this.screenSharer(meetingId, connection.connectionId))) {
            void control.kick(room.janusRoomId, room.secret, feedId).catch((err) => this.log.warn({ err }, 'kick of a refused screen share failed'));
            return;
          }
          // A tagged screen share is one even when no camera publishes (camera busy, denied or restarting);
          // otherwise the first publisher is the camera.
          if (videoType !== 'screen' && (entry.cameraHandle === null || entry.cameraHandle === handleId)) {
            entry.cameraHandle = handleId;
            connection.feedId = feedId;
          } else {
            entry.screenHandle = handleId;
            entry.screenFeedId = feedId;
          }
          this.broadcastAbout(meetingId, entry, { videomote: 'connectionUpdated', connection: this.view(entry) });
        },
        onUnpublished: (handleId) => {
          if (!entry) return;
          if (entry.cameraHandle === handleId) {
            entry.cameraHandle = null;
            connection.feedId = null;
            connection.hasAudio = connection.hasVideo = false;
          } else if (entry.screenHandle === handleId) {
            entry.screenHandle = null;
            entry.screenFeedId = null;
          }
          this.broadcastAbout(meetingId, entry, { videomote: 'connectionUpdated', connection: this.view(entry) });
        },
        onFeedLeft: (feedId) => this.remoteFeedLeft(meetingId, feedId),
        onOwnMessage: (m) => {
          if (m.videomote === 'ping') return entry?.relay.sendOwn({ videomote: 'pong' } satisfies MediaServerMessage);
          if (m.videomote === 'bye') return entry?.relay.goodbye();
          if (!entry || m.videomote !== 'state' || !entry.capabilities.publish) return;
          if (typeof m.hasAudio !== 'boolean' || typeof m.hasVideo !== 'boolean') return;
          connection.hasAudio = m.hasAudio;
          connection.hasVideo = m.hasVideo;
          // The owner switched the microphone back on after a forced mute: their own choice, so Janus relays it again.
          if (m.hasAudio && entry.mutedMids.length) void this.releaseForcedMute(meetingId, entry);
          this.broadcastAbout(meetingId, entry, { videomote: 'connectionUpdated', connection: this.view(entry) });
        },
        onRefused: (reason, janus) => {
          this.log.warn({ meetingId, connectionId: connection.connectionId, janus, reason }, 'media request refused');
          this.recordError(meetingId, 'media', 'request-refused', `Begäran nekades (${String(janus)}): ${reason}`);
        },
        onFailed: (what, detail) => {
          // Its Janus went away: the next connection checks the room again (and moves it if that Janus is dead).
          if (what === 'upstream') this.roomReady.delete(meetingId);
          this.recordError(meetingId, 'media', what === 'upstream' ? 'media-server-gone' : `janus-${what}-failed`, `Janus: ${detail}`);
        },
        onClosed: () => {
          const conns = this.live.get(meetingId);
          conns?.delete(connection.connectionId);
          if (conns && conns.size === 0) this.live.delete(meetingId);
          if (entry) this.broadcastAbout(meetingId, entry, { videomote: 'connectionDestroyed', connectionId: connection.connectionId });
          this.syncProtection(meetingId);
        },
      },
    });
    entry = {
      connection,
      relay,
      capabilities,
      cameraHandle: null,
      screenHandle: null,
      screenFeedId: null,
      mutedMids: [],
      user: admission.user,
      personKey,
      meetingId,
      meetingType: membership.meeting.type,
      sessionToken: admission.sessionToken,
      sessionHash: sha256(admission.sessionToken),
      resumeKey,
      keyEpoch: 0,
      turnExpiry: 0,
      holder,
    };
    const early = takeEarly();
    if (socket.readyState !== socket.OPEN) return relay.close();
    const conns = this.live.get(meetingId) ?? new Map<string, LiveConnection>();
    this.live.set(meetingId, conns);
    this.broadcastAbout(meetingId, entry, { videomote: 'connectionCreated', connection: this.view(entry) });
    conns.set(connection.connectionId, entry);
    const me = entry;
    relay.sendOwn({
      videomote: 'connected',
      connectionId: connection.connectionId,
      capabilities,
      roomId: room.janusRoomId,
      connections: [...[...conns.values()].filter((c) => c === me || this.sees(me, c)).map((c) => this.view(c)), ...this.remoteConnections(meetingId, me)],
    } satisfies MediaServerMessage);
    this.syncProtection(meetingId, entry);
    this.renewTurn();
    for (const text of early) relay.receive(text);
    // The key may have been replaced since this browser's gettoken: the current one follows once read (and this
    // browser recorded as its holder again). Not awaited before the hello above: the browser holds gettoken's key,
    // and its Janus requests waited behind these two database calls (44 ms of a join in the media bench's ladder).
    // A replacement pushed meanwhile (pushMediaKey) is not rolled back.
    try {
      const mediaKey = await this.keys.handTo(membership, admission.user);
      if (mediaKey.epoch > me.keyEpoch && socket.readyState === socket.OPEN) {
        relay.sendOwn({ videomote: 'mediaKey', ...mediaKey } satisfies MediaServerMessage);
        me.keyEpoch = mediaKey.epoch;
      }
    } catch (err) {
      // gettoken recorded the holder and handed the key; the call goes on with it.
      this.log.warn({ err, meetingId }, 'media key not refreshed at connect');
    }
  }

  /** The connection (other than `except`) that shares a screen in the meeting now, on this process. */
  private screenSharer(meetingId: string, except: string): LiveConnection | null {
    for (const c of this.live.get(meetingId)?.values() ?? []) if (c.connection.connectionId !== except && c.screenFeedId) return c;
    return null;
  }

  /**
   * A new socket of a browser whose connection is still held (its old socket broke, or hangs after an address
   * change): the same user with the key it chose gets the same connection back — same id, Janus session and
   * feeds — so nothing is published or subscribed twice and the others see no one leave.
   */
  private resume(socket: WebSocket, admission: MediaAdmission, resumeKey: string, takeEarly: () => string[]): boolean {
    const meetingId = admission.membership.meeting.id;
    const entry = [...(this.live.get(meetingId)?.values() ?? [])].find((c) => c.resumeKey === resumeKey && c.user.subject === admission.user.subject);
    if (!entry || !entry.relay.resume(socket)) return false;
    const early = takeEarly();
    entry.relay.sendOwn({
      videomote: 'connected',
      connectionId: entry.connection.connectionId,
      capabilities: entry.capabilities,
      roomId: entry.relay.context.roomId,
      // The other nodes' connections too: the page replaces its whole list with this one.
      connections: [
        ...[...(this.live.get(meetingId)?.values() ?? [])].filter((c) => c === entry || this.sees(entry, c)).map((c) => this.view(c)),
        ...this.remoteConnections(meetingId, entry),
      ],
      resumed: true,
    } satisfies MediaServerMessage);
    this.syncProtection(meetingId, entry);
    // A resumed page may have slept past its credentials' expiry: it gets the current ones again.
    entry.turnExpiry = 0;
    this.renewTurn();
    for (const text of early) entry.relay.receive(text);
    return true;
  }

  /** A feed some connection of this meeting publishes now (camera or screen share), as announced on `/media`. */
  private isRoomFeed(meetingId: string, feedId: number): boolean {
    for (const c of this.live.get(meetingId)?.values() ?? []) if (c.connection.feedId === feedId || c.screenFeedId === feedId) return true;
    // Published through another node (behind the proxy, participants of one meeting are spread over the nodes).
    for (const r of this.remote.get(meetingId)?.values() ?? []) if (r.connection.feedId === feedId || r.connection.screenFeedId === feedId) return true;
    return false;
  }

  /**
   * Tells the meeting's connections on this process whether its media is end-to-end encrypted, when that changes
   * (a browser without encoded transforms came or went, here or on another node), and `newcomer` in any case.
   */
  private syncProtection(meetingId: string, newcomer?: LiveConnection): void {
    const local = [...(this.live.get(meetingId)?.values() ?? [])];
    if (!local.length) return void this.transitOnly.delete(meetingId);
    const endToEnd = meetingEndToEnd([...local.map((c) => c.connection), ...[...(this.remote.get(meetingId)?.values() ?? [])].map((r) => r.connection)]);
    const was = !this.transitOnly.has(meetingId);
    if (endToEnd) this.transitOnly.delete(meetingId);
    else this.transitOnly.add(meetingId);
    const message = { videomote: 'mediaProtection', endToEnd } satisfies MediaServerMessage;
    if (endToEnd !== was) for (const c of local) c.relay.sendOwn(message);
    else newcomer?.relay.sendOwn(message);
  }

  private view(e: LiveConnection): MediaConnection {
    return { ...e.connection, screenFeedId: e.screenFeedId };
  }

  /** Tells the meeting's connections about `subject`: those allowed to see it (a webcast's viewers see only who may present). */
  private broadcastAbout(meetingId: string, subject: LiveConnection, message: MediaServerMessage): void {
    for (const c of this.live.get(meetingId)?.values() ?? []) if (c === subject || this.sees(c, subject)) c.relay.sendOwn(message);
    // The meeting's connections on other nodes too, with what they need to apply the same rule.
    void this.deps.bus.publish('media-connections', JSON.stringify({ meetingId, message, publish: subject.capabilities.publish })).catch(() => {});
  }

  /** To this process's connections of the meeting that may see a connection of another node. */
  private deliverAbout(meetingId: string, subjectPublishes: boolean, message: MediaServerMessage): void {
    for (const c of this.live.get(meetingId)?.values() ?? []) if (seesConnection(c.meetingType, c.capabilities, { publish: subjectPublishes })) c.relay.sendOwn(message);
  }

  private sees(viewer: LiveConnection, subject: LiveConnection): boolean {
    return seesConnection(viewer.meetingType, viewer.capabilities, subject.capabilities);
  }

  /** The PeerConnections of a person (all their sockets) and of the meeting, as the relay policy weighs a join. */
  private usage(meetingId: string, personKey: string, self: JanusRelay, limits: PeerConnectionUsage['limits']): PeerConnectionUsage {
    const person = { peerConnections: 0, publishers: 0 };
    let meeting = 0;
    const conns = [...(this.live.get(meetingId)?.values() ?? [])];
    // Counted before the socket is listed (its first messages are handled during connect).
    const relays = conns.some((c) => c.relay === self) ? conns.map((c) => ({ relay: c.relay, key: c.personKey })) : [...conns.map((c) => ({ relay: c.relay, key: c.personKey })), { relay: self, key: personKey }];
    for (const { relay, key } of relays) {
      const n = relay.peerConnections();
      meeting += n.peerConnections;
      if (key !== personKey) continue;
      person.peerConnections += n.peerConnections;
      person.publishers += n.publishers;
    }
    return { person, meeting: { peerConnections: meeting }, limits };
  }

  /**
   * What `holder` holds now: handles and PeerConnections of every socket on this node with the same person, session
   * or address (any meeting, `self` included before it is listed), plus what the other nodes last announced.
   */
  private holdUsage(holder: Holder, self: JanusRelay): HoldUsage {
    const held = { handles: { person: 0, session: 0, address: 0 }, peerConnections: { person: 0, session: 0, address: 0 } };
    const add = (counts: { holder: Holder; handles: number; peerConnections: number }) => {
      for (const scope of HOLD_SCOPES) {
        if (counts.holder[scope] !== holder[scope]) continue;
        held.handles[scope] += counts.handles;
        held.peerConnections[scope] += counts.peerConnections;
      }
    };
    let listed = false;
    this.eachConnection((c) => {
      listed ||= c.relay === self;
      add({ holder: c.holder, handles: c.relay.handles(), peerConnections: c.relay.peerConnections().peerConnections });
    });
    if (!listed) add({ holder, handles: self.handles(), peerConnections: self.peerConnections().peerConnections });
    const now = Date.now();
    for (const [node, remote] of this.remoteHolds) {
      if (now - remote.seen > REMOTE_EXPIRY_MS) {
        this.remoteHolds.delete(node);
        continue;
      }
      for (const scope of HOLD_SCOPES) {
        const counts = remote.counts[holder[scope]];
        if (!counts) continue;
        held.handles[scope] += counts[0];
        held.peerConnections[scope] += counts[1];
      }
    }
    return { held, caps: { handles: this.deps.config.mediaHoldCaps.handles, peerConnections: this.deps.config.mediaHoldCaps.peerConnections } };
  }

  /** This node's handles and PeerConnections per holder key, for the other nodes' holdUsage. */
  private holdTotals(): Record<string, [number, number]> {
    const totals: Record<string, [number, number]> = {};
    this.eachConnection((c) => {
      const [handles, pcs] = [c.relay.handles(), c.relay.peerConnections().peerConnections];
      for (const scope of HOLD_SCOPES) {
        const t = (totals[c.holder[scope]] ??= [0, 0]);
        t[0] += handles;
        t[1] += pcs;
      }
    });
    return totals;
  }

  /** Other nodes' connections of the meeting that `viewer` may see (a webcast's viewers: only who may present). */
  private remoteConnections(meetingId: string, viewer: LiveConnection): MediaConnection[] {
    return [...(this.remote.get(meetingId)?.values() ?? [])]
      .filter((r) => seesConnection(viewer.meetingType, viewer.capabilities, { publish: r.publish }))
      .map((r) => r.connection);
  }

  /** An event of another node's connection, or its periodic list (which also ages out a dead node's connections). */
  private fromAnotherNode(raw: string): void {
    const parsed = JSON.parse(raw) as { meetingId?: string; message?: MediaServerMessage; publish?: boolean; held?: Record<string, HeldConnection[]> };
    const now = this.deps.now().getTime();
    const upsert = (meetingId: string, connection: MediaConnection, publish: boolean) => {
      const conns = this.remote.get(meetingId) ?? new Map<string, RemoteConnection>();
      this.remote.set(meetingId, conns);
      const known = conns.has(connection.connectionId);
      conns.set(connection.connectionId, { connection, publish, seen: now });
      return known;
    };
    if (parsed.held) {
      for (const [meetingId, conns] of Object.entries(parsed.held)) {
        for (const c of conns) if (!upsert(meetingId, c.connection, c.publish)) this.deliverAbout(meetingId, c.publish, { videomote: 'connectionCreated', connection: c.connection });
        this.syncProtection(meetingId);
      }
      return;
    }
    const { meetingId, message } = parsed;
    const publish = parsed.publish === true;
    if (!meetingId || !message) return;
    if (message.videomote === 'connectionDestroyed') {
      this.remote.get(meetingId)?.delete(message.connectionId);
      if (this.remote.get(meetingId)?.size === 0) this.remote.delete(meetingId);
    } else if (message.videomote === 'connectionCreated' || message.videomote === 'connectionUpdated') {
      upsert(meetingId, message.connection, publish);
    } else {
      return;
    }
    this.deliverAbout(meetingId, publish, message);
    this.syncProtection(meetingId);
  }

  /** A feed left the meeting's room: another node's connection that published it no longer does (see withoutLeftFeed). */
  private remoteFeedLeft(meetingId: string, feedId: number): void {
    for (const r of this.remote.get(meetingId)?.values() ?? []) {
      const updated = withoutLeftFeed(r.connection, feedId);
      if (!updated) continue;
      r.connection = updated;
      this.deliverAbout(meetingId, r.publish, { videomote: 'connectionUpdated', connection: updated });
    }
  }

  /** Tells the other nodes which connections this one holds; forgets theirs not heard of for REMOTE_EXPIRY_MS. */
  private announce(): void {
    const held: Record<string, HeldConnection[]> = {};
    for (const [meetingId, conns] of this.live) {
      if (conns.size) held[meetingId] = [...conns.values()].map((c) => ({ connection: this.view(c), publish: c.capabilities.publish }));
    }
    if (Object.keys(held).length) void this.deps.bus.publish('media-connections', JSON.stringify({ held })).catch(() => {});
    // Every period, even with nothing held: the others then forget what this node held before.
    void this.deps.bus.publish('media-holds', JSON.stringify({ node: this.nodeId, counts: this.holdTotals() })).catch(() => {});
    // The injected clock, as where `seen` is stamped: a test moves it past REMOTE_EXPIRY_MS (cross-node.api.test.ts).
    const now = this.deps.now().getTime();
    for (const [meetingId, conns] of this.remote) {
      for (const [id, r] of conns) {
        if (now - r.seen < REMOTE_EXPIRY_MS) continue;
        conns.delete(id);
        this.deliverAbout(meetingId, r.publish, { videomote: 'connectionDestroyed', connectionId: id });
      }
      if (!conns.size) this.remote.delete(meetingId);
      this.syncProtection(meetingId);
    }
  }

  /** Felsökning: a browser's /media socket could not be wired to Janus. */
  recordConnectFailure(meetingId: string, err: unknown): void {
    this.recordError(meetingId, 'media', 'connect-failed', `Anslutningen till mediaservern misslyckades: ${errorText(err)}`);
  }

  /** Connections currently in a meeting's media session (for tests and moderation). */
  /** What this process relays now: `/media` connections and the feeds they publish (cameras and screens). */
  localTotals(): { connections: number; publishers: number } {
    let connections = 0;
    let publishers = 0;
    for (const meeting of this.live.values()) {
      for (const c of meeting.values()) {
        connections += 1;
        publishers += c.relay.publishedFeeds().length;
      }
    }
    return { connections, publishers };
  }

  connections(meetingId: string): MediaConnection[] {
    return [...(this.live.get(meetingId)?.values() ?? [])].map((c) => this.view(c));
  }

  /** The ids of other nodes' connections in a meeting that this node still counts (for tests). */
  remoteConnectionIds(meetingId: string): string[] {
    return [...(this.remote.get(meetingId)?.keys() ?? [])];
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

  /** Checks the moderator here, then acts on the connection here or on the node that holds it (cluster bus). */
  private async moderate(user: SessionUser, meetingId: string, connectionId: string, action: ModerationAction): Promise<void> {
    const membership = await this.admit(user, meetingId);
    if (!capabilitiesFor(membership, user.features)[MODERATION_NEEDS[action]]) throw forbidden();
    if (this.live.get(meetingId)?.has(connectionId) || !this.deps.config.redisUrl) return this.perform(action, meetingId, connectionId);
    const id = crypto.randomUUID();
    const answered = new Promise<void>((resolve, reject) => {
      this.moderationsWaiting.set(id, { resolve, reject });
      setTimeout(() => {
        // Nobody holds it (gone meanwhile) or its node is down.
        if (this.moderationsWaiting.delete(id)) reject(notFound('Anslutningen finns inte längre'));
      }, MODERATION_ANSWER_MS).unref();
    });
    await this.deps.bus.publish('media-moderation', JSON.stringify({ id, meetingId, connectionId, action }));
    return answered;
  }

  private async moderateForAnotherNode(raw: string): Promise<void> {
    const request = JSON.parse(raw) as { id: string; meetingId: string; connectionId: string; action: ModerationAction };
    if (!this.live.get(request.meetingId)?.has(request.connectionId) || !(request.action in MODERATION_NEEDS)) return;
    let error: { code: AppError['code']; message: string } | null = null;
    try {
      await this.perform(request.action, request.meetingId, request.connectionId);
    } catch (err) {
      this.log.warn({ err, meetingId: request.meetingId }, 'moderation for another node failed');
      error = err instanceof AppError ? { code: err.code, message: err.message } : { code: 'InternalError', message: 'Ett oväntat fel inträffade' };
    }
    await this.deps.bus.publish('media-moderation-answers', JSON.stringify({ id: request.id, error })).catch(() => {});
  }

  /** Carries out a moderation already authorised, on a connection of this process. */
  private async perform(action: ModerationAction, meetingId: string, connectionId: string): Promise<void> {
    const target = this.live.get(meetingId)?.get(connectionId);
    if (!target) throw notFound('Anslutningen finns inte längre');
    const meeting = await findMeeting(this.deps.db, meetingId);
    if (!meeting) throw notFound('Mötet hittades inte');
    const room = await this.ensureRoom(meeting);
    const control = await this.pool.get(room.instance);
    if (action === 'forceUnpublish') {
      if (!target.screenFeedId) throw conflict('Ingen skärmdelning att avsluta');
      await control.kick(room.janusRoomId, room.secret, target.screenFeedId);
      // The room is free from now on: the taker's offer may arrive before Janus tells the target's relay.
      target.screenHandle = null;
      target.screenFeedId = null;
      target.relay.sendOwn({ videomote: 'forceUnpublished' } satisfies MediaServerMessage);
      this.broadcastAbout(meetingId, target, { videomote: 'connectionUpdated', connection: this.view(target) });
    } else if (action === 'forceMute') {
      const feedId = target.connection.feedId;
      const mids = feedId ? target.relay.audioMids(feedId) : [];
      if (!feedId || !target.connection.hasAudio || mids.length === 0) throw conflict('Deltagaren har ingen påslagen mikrofon');
      for (const mid of mids) await control.moderate(room.janusRoomId, room.secret, feedId, mid, true);
      target.mutedMids = mids;
      target.connection.hasAudio = false;
      target.relay.sendOwn({ videomote: 'muteForced' } satisfies MediaServerMessage);
      this.broadcastAbout(meetingId, target, { videomote: 'connectionUpdated', connection: this.view(target) });
    } else {
      await this.removeFeeds(target);
      target.relay.sendOwn({ videomote: 'forceDisconnected' } satisfies MediaServerMessage);
      target.relay.close(CLOSE_KICKED, 'removed by a moderator');
    }
  }

  private async releaseForcedMute(meetingId: string, entry: LiveConnection): Promise<void> {
    const mids = entry.mutedMids;
    const feedId = entry.connection.feedId;
    entry.mutedMids = [];
    if (!feedId) return;
    try {
      const room = await this.ensureRoom((await findMeeting(this.deps.db, meetingId))!);
      const control = await this.pool.get(room.instance);
      for (const mid of mids) await control.moderate(room.janusRoomId, room.secret, feedId, mid, false);
    } catch (err) {
      this.log.warn({ err, meetingId }, 'releasing a forced mute failed');
    }
  }

  /**
   * The booking changed (a participant removed, the meeting deleted): connections of people who no longer belong
   * are removed like a moderator's kick (feeds kicked with the room secret, then the socket closed with 4002).
   * Whose rights changed (a presenter made a participant, or the reverse) has them changed at once: the relay
   * refuses what they may no longer do, feeds they may no longer send are kicked off Janus, and the socket is closed
   * with 4009 so the page connects again and learns the new capabilities.
   * This process's connections only; other processes get the event through the cluster bus.
   */
  async recheckMembership(meetingId: string): Promise<number> {
    const conns = [...(this.live.get(meetingId)?.values() ?? [])];
    if (!conns.length) return 0;
    const meeting = await findMeeting(this.deps.db, meetingId);
    let changed = 0;
    for (const c of conns) {
      const membership = meeting ? await membershipOf(this.deps.db, meetingId, c.user) : null;
      const stillThere = membership && (membership.kind === 'participant' ? membership.participant.id : null) === c.connection.participantId;
      if (!stillThere) {
        changed += 1;
        await this.removeFeeds(c);
        c.relay.sendOwn({ videomote: 'forceDisconnected' } satisfies MediaServerMessage);
        c.relay.close(CLOSE_KICKED, meeting ? 'no longer a participant' : 'meeting deleted');
        continue;
      }
      const capabilities = capabilitiesFor(membership, c.user.features);
      if (sameCapabilities(capabilities, c.capabilities)) continue;
      changed += 1;
      // SECURITY: at once, before anything else can be relayed: the next publish is refused.
      c.relay.context.capabilities = capabilities;
      c.capabilities = capabilities;
      if (!capabilities.publish) await this.removeFeeds(c);
      c.relay.close(CLOSE_RIGHTS_CHANGED, 'rights changed');
    }
    return changed;
  }

  /** Kicks a connection's published feeds off Janus with the room secret (a modified browser cannot keep sending). */
  private async removeFeeds(c: LiveConnection): Promise<void> {
    const feeds = c.relay.publishedFeeds();
    if (!feeds.length) return;
    const room = await findRoom(this.deps.db, c.meetingId).catch(() => null);
    if (!room) return;
    const control = await this.pool.get(room.instance).catch(() => null);
    for (const feedId of feeds) await control?.kick(room.janusRoomId, room.secret, feedId).catch((err) => this.log.warn({ err }, 'kick of a feed failed'));
  }

  /**
   * The meeting's key was replaced: this process's connections get the new one, each checked against the booking
   * first (the removed one may still be connected here, waiting for its own membership check to close it).
   */
  async pushMediaKey(meetingId: string): Promise<number> {
    const conns = [...(this.live.get(meetingId)?.values() ?? [])];
    if (!conns.length) return 0;
    const meeting = await findMeeting(this.deps.db, meetingId);
    if (!meeting) return 0;
    const key = await this.keys.current(meeting);
    let sent = 0;
    for (const c of conns) {
      if (c.keyEpoch >= key.epoch) continue;
      const membership = await membershipOf(this.deps.db, meetingId, c.user);
      if (!membership || (membership.kind === 'participant' ? membership.participant.id : null) !== c.connection.participantId) continue;
      c.relay.sendOwn({ videomote: 'mediaKey', ...key } satisfies MediaServerMessage);
      c.keyEpoch = key.epoch;
      sent += 1;
    }
    return sent;
  }

  private startSweeping(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => void this.sweep().catch((err) => this.log.warn({ err }, 'media room sweep failed')), SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** Destroys the rooms of meetings that are over and empty. */
  async sweep(): Promise<number> {
    let destroyed = 0;
    for (const room of await roomsOfEndedMeetings(this.deps.db, this.deps.now())) {
      if (this.live.get(room.meetingId)?.size) continue;
      try {
        const control = await this.pool.get(room.instance);
        await control.destroyRoom(room.janusRoomId, room.secret);
      } catch (err) {
        this.log.warn({ err, meetingId: room.meetingId }, 'media room could not be destroyed on janus; forgetting it');
      }
      this.roomReady.delete(room.meetingId);
      await deleteRoom(this.deps.db, room.meetingId);
      destroyed += 1;
    }
    return destroyed;
  }

  /** Which Janus room holds the meeting, for Felsökning: its number and instance only; the secret stays here. */
  async roomOf(meetingId: string): Promise<{ janusRoomId: number; instance: string } | null> {
    const room = await findRoom(this.deps.db, meetingId);
    return room ? { janusRoomId: room.janusRoomId, instance: room.instance } : null;
  }

  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const t of this.timers) clearInterval(t);
    this.sessionWatch.stop();
    if (this.announceTimer) clearInterval(this.announceTimer);
    for (const conns of this.live.values()) for (const c of conns.values()) c.relay.close(1001, 'server stopping');
    this.live.clear();
    this.upstreams.close();
    await this.pool.close();
  }
}

/** An error's message for Felsökning: short, one line (the recorder scrubs it further). */
function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}

/**
 * The room's cap on what one publisher sends (Janus tells the browser with REMB): all three simulcast layers plus a
 * margin for audio and the encoder's overshoot. Below the sum, the browser switches its top layer off for everyone.
 */
export function publisherBitrateCap(layers: VideoLayers): number {
  return Math.round((layers.lowKbps + layers.mediumKbps + Math.max(layers.highKbps, layers.screenKbps)) * 1000 * 1.15);
}
