import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type WebSocket from 'ws';
import type { Capabilities, ConnectionData, GetTokenData, InvitedParticipant, MediaConnection, MediaServerMessage } from '@videomote/contract/media';
import { PRESENTER_ROLES } from '@videomote/contract/participant-roles';
import type { Deps } from '../../app.ts';
import { forbidden, notFound, validationError, conflict } from '../../platform/errors.ts';
import type { SessionUser } from '../../platform/session.ts';
import { findMeeting, listMembers, membershipOf, type MeetingSummary, type Membership } from '../meetings/meeting-membership.ts';
import { capabilitiesFor } from './capabilities.ts';
import { signMediaToken, verifyMediaToken, type MediaTokenClaims } from './media-token.ts';
import { deleteRoom, findRoom, insertRoom, roomsOfEndedMeetings, roomsPerInstance, type RoomRecord } from './media.repository.ts';
import { JanusPool } from './janus/janus-pool.ts';
import { JanusError } from './janus/janus-control.ts';
import { CLOSE_KICKED, JanusRelay } from './janus/janus-relay.ts';
import { signJanusToken } from './janus/janus-token.ts';
import { meetingErrorRecorder, type MeetingErrorRecorder } from '../admin/meeting-errors.ts';
import { MediaKeys } from './media-keys.ts';

const TOKEN_HOURS = 12;
const ROOM_PUBLISHERS = 24; // 12 cameras in the main grid plus screen shares
const SWEEP_MS = 60_000;

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
  /** The epoch of the media key this connection was last handed (0: none yet). */
  keyEpoch: number;
}

export interface MediaAdmission {
  membership: Membership;
  claims: MediaTokenClaims;
  user: SessionUser;
}

/**
 * The media module's rules: tokens and capabilities, one VideoRoom per meeting (created on demand, recreated
 * after a Janus restart, destroyed once the meeting is over and empty), the per-meeting list of live connections
 * announced on `/media`, and the moderation the server performs with the room secret.
 */
export class MediaService {
  readonly pool: JanusPool;
  private readonly live = new Map<string, Map<string, LiveConnection>>();
  private readonly roomReady = new Map<string, Promise<RoomRecord>>();
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Felsökning's recent errors: what failed with Janus for a meeting (codes and Janus's reason, never secrets). */
  private readonly recordError: MeetingErrorRecorder;
  readonly keys: MediaKeys;

  constructor(
    private readonly deps: Deps,
    private readonly log: FastifyBaseLogger,
  ) {
    this.pool = new JanusPool(deps.config, log);
    this.recordError = meetingErrorRecorder(deps.db, deps.now, log);
    this.keys = new MediaKeys(deps.db, deps.pins);
    // A restarted Janus has no rooms: forget which we created so the next use recreates them.
    this.pool.on('restarted', (instance: string) => {
      for (const [meetingId, p] of this.roomReady) {
        p.then((r) => r.instance === instance && this.roomReady.delete(meetingId), () => this.roomReady.delete(meetingId));
      }
    });
  }

  async getToken(user: SessionUser, meetingId: string, requestedName: string | null | undefined): Promise<GetTokenData> {
    const membership = await this.admit(user, meetingId);
    const displayName = this.displayNameFor(membership, requestedName);
    const capabilities = capabilitiesFor(membership);
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

  private displayNameFor(membership: Membership, requested: string | null | undefined): string {
    if (membership.kind === 'participant') return membership.participant.displayName;
    const name = (requested ?? '').replace(/\s+/g, ' ').trim();
    if (!name || name.length > 100 || /[<>]/.test(name)) throw validationError([{ fields: ['displayName'], message: 'Fältet är ej korrekt ifyllt' }]);
    return name;
  }

  /** Checks a `/media` upgrade: the cookie's user, a valid token for this meeting and user, and membership. */
  async admitSocket(user: SessionUser | null, meetingId: string, token: string | undefined): Promise<MediaAdmission> {
    if (!user) throw forbidden('Du är inte inloggad');
    const claims = token ? verifyMediaToken(this.deps.pins, token, this.deps.now()) : null;
    if (!claims || claims.m !== meetingId || claims.sub !== user.subject) throw forbidden('Ogiltig mediabiljett');
    const membership = await this.admit(user, meetingId);
    return { membership, claims, user };
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
      const control = await this.pool.get(room.instance);
      if (!(await control.roomExists(room.janusRoomId))) {
        try {
          await control.createRoom(room.janusRoomId, room.secret, { publishers: ROOM_PUBLISHERS, description: meeting.id, requireE2ee: true });
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

  /** Wires an admitted browser socket to Janus through the policy-checked relay and announces it. */
  async connect(socket: WebSocket, admission: MediaAdmission, takeEarly: () => string[] = () => []): Promise<void> {
    const { membership, claims } = admission;
    const meetingId = membership.meeting.id;
    const room = await this.ensureRoom(membership.meeting);
    const control = await this.pool.get(room.instance);
    // Before the relay is wired: from then on until takeEarly nothing may wait (see media.routes).
    const mediaKey = await this.keys.handTo(membership, admission.user);
    const capabilities = capabilitiesFor(membership);
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
    };
    const tokenSecret = control.info.tokenSecret;
    let entry: LiveConnection | null = null;
    const relay = new JanusRelay(socket, {
      upstreamUrl: control.info.url,
      janusToken: () => signJanusToken(tokenSecret, Date.now() / 1000 + 3600),
      context: { roomId: room.janusRoomId, capabilities, display: JSON.stringify(display) },
      hooks: {
        onPublished: (handleId, feedId, videoType) => {
          if (!entry) return;
          // A tagged screen share is one even when no camera publishes (camera busy, denied or restarting);
          // otherwise the first publisher is the camera.
          if (videoType !== 'screen' && (entry.cameraHandle === null || entry.cameraHandle === handleId)) {
            entry.cameraHandle = handleId;
            connection.feedId = feedId;
          } else {
            entry.screenHandle = handleId;
            entry.screenFeedId = feedId;
          }
          this.broadcast(meetingId, { videomote: 'connectionUpdated', connection: this.view(entry) });
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
          this.broadcast(meetingId, { videomote: 'connectionUpdated', connection: this.view(entry) });
        },
        onOwnMessage: (m) => {
          if (!entry || m.videomote !== 'state' || !capabilities.publish) return;
          if (typeof m.hasAudio !== 'boolean' || typeof m.hasVideo !== 'boolean') return;
          connection.hasAudio = m.hasAudio;
          connection.hasVideo = m.hasVideo;
          // The owner switched the microphone back on after a forced mute: their own choice, so Janus relays it again.
          if (m.hasAudio && entry.mutedMids.length) void this.releaseForcedMute(meetingId, entry);
          this.broadcast(meetingId, { videomote: 'connectionUpdated', connection: this.view(entry) });
        },
        onRefused: (reason, janus) => {
          this.log.warn({ meetingId, connectionId: connection.connectionId, janus, reason }, 'media request refused');
          this.recordError(meetingId, 'media', 'request-refused', `Begäran nekades (${String(janus)}): ${reason}`);
        },
        onFailed: (what, detail) => this.recordError(meetingId, 'media', what === 'upstream' ? 'media-server-gone' : `janus-${what}-failed`, `Janus: ${detail}`),
        onClosed: () => {
          const conns = this.live.get(meetingId);
          conns?.delete(connection.connectionId);
          if (conns && conns.size === 0) this.live.delete(meetingId);
          this.broadcast(meetingId, { videomote: 'connectionDestroyed', connectionId: connection.connectionId });
        },
      },
    });
    entry = { connection, relay, capabilities, cameraHandle: null, screenHandle: null, screenFeedId: null, mutedMids: [], user: admission.user, keyEpoch: 0 };
    const early = takeEarly();
    if (socket.readyState !== socket.OPEN) return relay.close();
    const conns = this.live.get(meetingId) ?? new Map<string, LiveConnection>();
    this.live.set(meetingId, conns);
    this.broadcast(meetingId, { videomote: 'connectionCreated', connection: this.view(entry) });
    conns.set(connection.connectionId, entry);
    relay.sendOwn({
      videomote: 'connected',
      connectionId: connection.connectionId,
      capabilities,
      roomId: room.janusRoomId,
      connections: [...conns.values()].map((c) => this.view(c)),
    } satisfies MediaServerMessage);
    // The key may have been replaced since this browser's gettoken.
    relay.sendOwn({ videomote: 'mediaKey', ...mediaKey } satisfies MediaServerMessage);
    entry.keyEpoch = mediaKey.epoch;
    for (const text of early) relay.receive(text);
  }

  private view(e: LiveConnection): MediaConnection {
    return { ...e.connection, screenFeedId: e.screenFeedId };
  }

  private broadcast(meetingId: string, message: MediaServerMessage): void {
    for (const c of this.live.get(meetingId)?.values() ?? []) c.relay.sendOwn(message);
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

  private async target(user: SessionUser, meetingId: string, connectionId: string, need: keyof Capabilities) {
    const membership = await this.admit(user, meetingId);
    if (!capabilitiesFor(membership)[need]) throw forbidden();
    const target = this.live.get(meetingId)?.get(connectionId);
    if (!target) throw notFound('Anslutningen finns inte längre');
    const room = await this.ensureRoom(membership.meeting);
    return { target, room, control: await this.pool.get(room.instance) };
  }

  /** Screen-share takeover: stops another participant's screen share with the room secret. */
  async forceUnpublish(user: SessionUser, meetingId: string, connectionId: string): Promise<void> {
    const { target, room, control } = await this.target(user, meetingId, connectionId, 'forceUnpublish');
    if (!target.screenFeedId) throw conflict('Ingen skärmdelning att avsluta');
    await control.kick(room.janusRoomId, room.secret, target.screenFeedId);
    target.relay.sendOwn({ videomote: 'forceUnpublished' } satisfies MediaServerMessage);
  }

  /**
   * A meeting admin force-mutes another connection's microphone (spec §4 Forced mute, §6): Janus stops relaying
   * the feed's audio (VideoRoom `moderate` with the room secret), so it holds even against a modified browser,
   * and the owner's page switches the microphone off and shows the banner.
   */
  async forceMute(user: SessionUser, meetingId: string, connectionId: string): Promise<void> {
    const { target, room, control } = await this.target(user, meetingId, connectionId, 'forceDisconnect');
    const feedId = target.connection.feedId;
    const mids = feedId ? target.relay.audioMids(feedId) : [];
    if (!feedId || !target.connection.hasAudio || mids.length === 0) throw conflict('Deltagaren har ingen påslagen mikrofon');
    for (const mid of mids) await control.moderate(room.janusRoomId, room.secret, feedId, mid, true);
    target.mutedMids = mids;
    target.connection.hasAudio = false;
    target.relay.sendOwn({ videomote: 'muteForced' } satisfies MediaServerMessage);
    this.broadcast(meetingId, { videomote: 'connectionUpdated', connection: this.view(target) });
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

  /** A meeting admin removes a connection: its feeds are kicked with the room secret, then its socket closes. */
  async kick(user: SessionUser, meetingId: string, connectionId: string): Promise<void> {
    const { target, room, control } = await this.target(user, meetingId, connectionId, 'forceDisconnect');
    for (const feedId of target.relay.publishedFeeds()) {
      await control.kick(room.janusRoomId, room.secret, feedId).catch((err) => this.log.warn({ err }, 'kick of a feed failed'));
    }
    target.relay.sendOwn({ videomote: 'forceDisconnected' } satisfies MediaServerMessage);
    target.relay.close(CLOSE_KICKED, 'removed by a moderator');
  }

  /**
   * The booking changed (a participant removed, the meeting deleted): connections of people who no longer belong
   * are removed like a moderator's kick (feeds kicked with the room secret, then the socket closed with 4002).
   * This process's connections only; other processes get the event through the chat module's channel.
   */
  async recheckMembership(meetingId: string): Promise<number> {
    const conns = [...(this.live.get(meetingId)?.values() ?? [])];
    if (!conns.length) return 0;
    const meeting = await findMeeting(this.deps.db, meetingId);
    let removed = 0;
    for (const c of conns) {
      const membership = meeting ? await membershipOf(this.deps.db, meetingId, c.user) : null;
      const stillThere = membership && (membership.kind === 'participant' ? membership.participant.id : null) === c.connection.participantId;
      if (stillThere) continue;
      removed += 1;
      const room = await findRoom(this.deps.db, meetingId).catch(() => null);
      if (room) {
        const control = await this.pool.get(room.instance).catch(() => null);
        for (const feedId of c.relay.publishedFeeds()) await control?.kick(room.janusRoomId, room.secret, feedId).catch((err) => this.log.warn({ err }, 'kick of a feed failed'));
      }
      c.relay.sendOwn({ videomote: 'forceDisconnected' } satisfies MediaServerMessage);
      c.relay.close(CLOSE_KICKED, meeting ? 'no longer a participant' : 'meeting deleted');
    }
    return removed;
  }

  /**
   * The meeting's key was replaced: this process's connections get the new one, each checked against the booking
   * first (the removed one may still be connected here, waiting for its own membership check to close it).
   */
  async pushMediaKey(meetingId: string): Promise<number> {
    const conns = [...(this.live.get(meetingId)?.values() ?? [])];
    if (!conns.length) return 0;
    const key = await this.keys.current(meetingId);
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

  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const conns of this.live.values()) for (const c of conns.values()) c.relay.close(1001, 'server stopping');
    this.live.clear();
    await this.pool.close();
  }
}

/** An error's message for Felsökning: short, one line (the recorder scrubs it further). */
function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}
