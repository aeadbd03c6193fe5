import crypto from 'node:crypto';
import type { Feature } from '@videomote/contract/identity';
import type { Capabilities, MediaServerMessage } from '@videomote/contract/media';
import type { FastifyBaseLogger } from 'fastify';
import type { ClusterBus } from '../../platform/cluster-bus.ts';
import type { Db } from '../../platform/db.ts';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { findMeeting, membershipOf, type Membership } from '../meetings/meeting-membership.ts';
import { capabilitiesFor, sameCapabilities } from './capabilities.ts';
import { stillAdmitted } from './media-admission.ts';
import { CLOSE_KICKED, CLOSE_RIGHTS_CHANGED } from './janus/janus-relay.ts';
import { view, type LiveConnection, type LiveConnections } from './live-connections.ts';
import type { MediaRooms } from './media-rooms.ts';

/** What a meeting admin may do to another connection, and the capability it needs. */
export type ModerationAction = 'forceUnpublish' | 'forceMute' | 'kick';
const MODERATION_NEEDS: Record<ModerationAction, keyof Capabilities> = { forceUnpublish: 'forceUnpublish', forceMute: 'forceDisconnect', kick: 'forceDisconnect' };

/** How long a node waits for the node holding a connection to carry out a moderation. */
const MODERATION_ANSWER_MS = 3_000;

export function mayModerate(capabilities: Capabilities, action: ModerationAction): boolean {
  return action in MODERATION_NEEDS && capabilities[MODERATION_NEEDS[action]];
}

/** Why a moderation cannot be done to the connection as it is now (409), or null: no screen share to stop, no microphone on to mute. */
export function moderationConflict(action: ModerationAction, target: { screenFeedId: number | null; feedId: number | null; hasAudio: boolean; audioMids: string[] }): string | null {
  if (action === 'forceUnpublish' && !target.screenFeedId) return 'Ingen skärmdelning att avsluta';
  if (action === 'forceMute' && (!target.feedId || !target.hasAudio || target.audioMids.length === 0)) return 'Deltagaren har ingen påslagen mikrofon';
  return null;
}

/**
 * A connection checked again after the booking changed: 'gone' when its person is no longer this participant of
 * the meeting (or the meeting is gone: no membership), 'rightsChanged' when what they may do changed, else 'same'.
 */
export function membershipVerdict(membership: Membership | null, participantId: string | null, now: Capabilities | null, before: Capabilities): 'gone' | 'rightsChanged' | 'same' {
  if (!stillAdmitted(membership, participantId)) return 'gone';
  return now && !sameCapabilities(now, before) ? 'rightsChanged' : 'same';
}

export interface MediaModerationDeps {
  db: Db;
  bus: ClusterBus;
  /** Whether other nodes may hold the connection (REDIS_URL). */
  clustered: boolean;
  log: FastifyBaseLogger;
  live: LiveConnections;
  rooms: MediaRooms;
  /** Tells everyone who may see the connection (here and on other nodes) that it changed. */
  announce(entry: LiveConnection, message: MediaServerMessage): void;
}

/**
 * What the server does to a connection with the room secret, so it holds even against a modified browser: a
 * moderator's force-mute, screen-share stop and removal (carried out by the node holding the connection), and the
 * removal of those the booking no longer admits.
 */
export class MediaModeration {
  private readonly waiting = new Map<string, { resolve(): void; reject(err: Error): void }>();

  constructor(private readonly deps: MediaModerationDeps) {
    // Behind the proxy the moderator and the participant are often on different nodes: the node holding the
    // participant's /media connection carries out what another node has authorised, and answers.
    deps.bus.on('media-moderation', (raw) => void this.forAnotherNode(raw));
    deps.bus.on('media-moderation-answers', (raw) => {
      const answer = JSON.parse(raw) as { id: string; error: { code: AppError['code']; message: string } | null };
      const waiting = this.waiting.get(answer.id);
      if (!waiting) return;
      this.waiting.delete(answer.id);
      if (answer.error) waiting.reject(new AppError(answer.error.code, answer.error.message));
      else waiting.resolve();
    });
  }

  /** Checks the moderator, then acts on the connection here or on the node that holds it (cluster bus). */
  async moderate(membership: Membership, features: readonly Feature[], connectionId: string, action: ModerationAction): Promise<void> {
    if (!mayModerate(capabilitiesFor(membership, features), action)) throw forbidden();
    const meetingId = membership.meeting.id;
    if (this.deps.live.get(meetingId, connectionId) || !this.deps.clustered) return this.perform(action, meetingId, connectionId);
    const id = crypto.randomUUID();
    const answered = new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      setTimeout(() => {
        // Nobody holds it (gone meanwhile) or its node is down.
        if (this.waiting.delete(id)) reject(notFound('Anslutningen finns inte längre'));
      }, MODERATION_ANSWER_MS).unref();
    });
    await this.deps.bus.publish('media-moderation', JSON.stringify({ id, meetingId, connectionId, action }));
    return answered;
  }

  private async forAnotherNode(raw: string): Promise<void> {
    const request = JSON.parse(raw) as { id: string; meetingId: string; connectionId: string; action: ModerationAction };
    if (!this.deps.live.get(request.meetingId, request.connectionId) || !(request.action in MODERATION_NEEDS)) return;
    let error: { code: AppError['code']; message: string } | null = null;
    try {
      await this.perform(request.action, request.meetingId, request.connectionId);
    } catch (err) {
      this.deps.log.warn({ err, meetingId: request.meetingId }, 'moderation for another node failed');
      error = err instanceof AppError ? { code: err.code, message: err.message } : { code: 'InternalError', message: 'Ett oväntat fel inträffade' };
    }
    await this.deps.bus.publish('media-moderation-answers', JSON.stringify({ id: request.id, error })).catch(() => {});
  }

  /** Carries out a moderation already authorised, on a connection of this process. */
  private async perform(action: ModerationAction, meetingId: string, connectionId: string): Promise<void> {
    const target = this.deps.live.get(meetingId, connectionId);
    if (!target) throw notFound('Anslutningen finns inte längre');
    const { room, control } = await this.deps.rooms.onJanusById(meetingId);
    if (action === 'kick') return this.eject(target, CLOSE_KICKED, 'removed by a moderator', { videomote: 'forceDisconnected' });
    const feedId = target.connection.feedId;
    const audioMids = feedId ? target.relay.audioMids(feedId) : [];
    const refusal = moderationConflict(action, { screenFeedId: target.screenFeedId, feedId, hasAudio: target.connection.hasAudio, audioMids });
    if (refusal) throw conflict(refusal);
    if (action === 'forceUnpublish') {
      await control.kick(room.janusRoomId, room.secret, target.screenFeedId!);
      // The room is free from now on: the taker's offer may arrive before Janus tells the target's relay.
      target.screenHandle = null;
      target.screenFeedId = null;
      target.relay.sendOwn({ videomote: 'forceUnpublished' } satisfies MediaServerMessage);
    } else {
      for (const mid of audioMids) await control.moderate(room.janusRoomId, room.secret, feedId!, mid, true);
      target.mutedMids = audioMids;
      target.connection.hasAudio = false;
      target.relay.sendOwn({ videomote: 'muteForced' } satisfies MediaServerMessage);
    }
    this.deps.announce(target, { videomote: 'connectionUpdated', connection: view(target) });
  }

  /** The owner switched the microphone back on after a forced mute: their own choice, so Janus relays it again. */
  async releaseForcedMute(entry: LiveConnection): Promise<void> {
    const mids = entry.mutedMids;
    const feedId = entry.connection.feedId;
    entry.mutedMids = [];
    if (!feedId) return;
    try {
      const { room, control } = await this.deps.rooms.onJanusById(entry.meetingId);
      for (const mid of mids) await control.moderate(room.janusRoomId, room.secret, feedId, mid, false);
    } catch (err) {
      this.deps.log.warn({ err, meetingId: entry.meetingId }, 'releasing a forced mute failed');
    }
  }

  /**
   * Removes a connection: its published feeds are kicked off Janus with the room secret first (a modified browser
   * cannot keep sending), then the page is told (`notice`) and its socket closed.
   */
  async eject(c: LiveConnection, code: number, reason: string, notice?: MediaServerMessage): Promise<void> {
    try {
      await this.kickFeeds(c);
    } finally {
      if (notice) c.relay.sendOwn(notice);
      c.relay.close(code, reason);
    }
  }

  private async kickFeeds(c: LiveConnection): Promise<void> {
    const feeds = c.relay.publishedFeeds();
    if (!feeds.length) return;
    const janus = await this.deps.rooms.recorded(c.meetingId);
    for (const feedId of feeds) await janus?.control.kick(janus.room.janusRoomId, janus.room.secret, feedId).catch((err) => this.deps.log.warn({ err }, 'kick of a feed failed'));
  }

  /**
   * The booking changed (a participant removed, the meeting deleted): connections of people who no longer belong
   * are removed like a moderator's kick (feeds kicked with the room secret, then the socket closed with 4002).
   * Whose rights changed (a presenter made a participant, or the reverse) has them changed at once: the relay
   * refuses what they may no longer do, feeds they may no longer send are kicked off Janus, and the socket is closed
   * with 4009 so the page connects again and learns the new capabilities.
   * This process's connections only; other processes get the event through the cluster bus.
   */
  async recheck(meetingId: string): Promise<number> {
    const conns = this.deps.live.in(meetingId);
    if (!conns.length) return 0;
    const meeting = await findMeeting(this.deps.db, meetingId);
    let changed = 0;
    for (const c of conns) {
      const membership = meeting ? await membershipOf(this.deps.db, meetingId, c.user) : null;
      const capabilities = membership ? capabilitiesFor(membership, c.user.features) : null;
      const verdict = membershipVerdict(membership, c.connection.participantId, capabilities, c.capabilities);
      if (verdict === 'same') continue;
      changed += 1;
      if (verdict === 'gone') {
        await this.eject(c, CLOSE_KICKED, meeting ? 'no longer a participant' : 'meeting deleted', { videomote: 'forceDisconnected' });
        continue;
      }
      // SECURITY: at once, before anything else can be relayed: the next publish is refused.
      c.relay.context.capabilities = capabilities!;
      c.capabilities = capabilities!;
      if (capabilities!.publish) c.relay.close(CLOSE_RIGHTS_CHANGED, 'rights changed');
      else await this.eject(c, CLOSE_RIGHTS_CHANGED, 'rights changed');
    }
    return changed;
  }
}
