import crypto from 'node:crypto';
import type { VideoLayers } from '@videomote/contract/identity';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../platform/config.ts';
import type { Db } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import { ROOM_PUBLISHERS } from '../../platform/media-capacity.ts';
import type { MeetingErrorRecorder } from '../admin/meeting-errors.ts';
import { findMeeting, type MeetingSummary } from '../meetings/meeting-membership.ts';
import { JanusError, type JanusControl } from './janus/janus-control.ts';
import { leastLoaded, type JanusPool } from './janus/janus-pool.ts';
import { deleteRoom, findRoom, insertRoom, moveRoom, roomsOfEndedMeetings, roomsPerInstance, type RoomRecord } from './media.repository.ts';

const SWEEP_MS = 60_000;

/**
 * Where a meeting's room is to be created: null to keep the recorded one, else the least loaded instance of the
 * pool (no room yet, or the recorded one's instance is no longer configured).
 */
export function placeRoom(recorded: string | null, configured: string[], loads: Map<string, number>): string | null {
  if (recorded !== null && configured.includes(recorded)) return null;
  return leastLoaded(loads, configured);
}

/**
 * Where a room on an instance that no longer answers moves: the least loaded of the others that answer; null to
 * stay (a pool of one, the instance answers after all, or no other answers either).
 */
export function failOverTarget(current: string, configured: string[], answering: string[], loads: Map<string, number>): string | null {
  if (configured.length < 2 || answering.includes(current)) return null;
  const alive = configured.filter((id) => id !== current && answering.includes(id));
  return alive.length ? leastLoaded(loads, alive) : null;
}

/**
 * The room's cap on what one publisher sends (Janus tells the browser with REMB): all three simulcast layers plus a
 * margin for audio and the encoder's overshoot. Below the sum, the browser switches its top layer off for everyone.
 */
export function publisherBitrateCap(layers: VideoLayers): number {
  return Math.round((layers.lowKbps + layers.mediumKbps + Math.max(layers.highKbps, layers.screenKbps)) * 1000 * 1.15);
}

/** An error's message for Felsökning: short, one line (the recorder scrubs it further). */
export function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}

/** A meeting's room and the Janus that holds it. */
export interface RoomOnJanus {
  room: RoomRecord;
  control: JanusControl;
}

export interface MediaRoomsDeps {
  config: Pick<Config, 'videoLayers'>;
  db: Db;
  now: () => Date;
  pool: JanusPool;
  log: FastifyBaseLogger;
  recordError: MeetingErrorRecorder;
  /** Whether this process has connections in the meeting's media now (the sweep leaves their room alone). */
  inUse(meetingId: string): boolean;
}

/**
 * One VideoRoom per meeting: placed on the least loaded Janus when first needed, created again after a Janus
 * restart, moved off a Janus that no longer answers, destroyed once the meeting is over and nobody is connected.
 */
export class MediaRooms {
  private readonly ready = new Map<string, Promise<RoomRecord>>();
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: MediaRoomsDeps) {
    // A restarted Janus has no rooms: forget which we created so the next use recreates them.
    deps.pool.on('restarted', (instance: string) => {
      for (const [meetingId, p] of this.ready) {
        p.then((r) => r.instance === instance && this.ready.delete(meetingId), () => this.ready.delete(meetingId));
      }
    });
  }

  ensure(meeting: MeetingSummary): Promise<RoomRecord> {
    const cached = this.ready.get(meeting.id);
    if (cached) return cached;
    const p = this.prepare(meeting);
    this.ready.set(meeting.id, p);
    p.catch(() => this.ready.delete(meeting.id));
    return p;
  }

  /** The meeting's room, ready on its Janus, and that Janus. */
  async onJanus(meeting: MeetingSummary): Promise<RoomOnJanus> {
    const room = await this.ensure(meeting);
    return { room, control: await this.deps.pool.get(room.instance) };
  }

  /** As onJanus, by the meeting's id (404 when the meeting is gone). */
  async onJanusById(meetingId: string): Promise<RoomOnJanus> {
    const meeting = await findMeeting(this.deps.db, meetingId);
    if (!meeting) throw notFound('Mötet hittades inte');
    return this.onJanus(meeting);
  }

  /**
   * The room as recorded and its Janus, without creating or moving anything: null when there is none or its Janus
   * cannot be reached (for kicking feeds on the way out, which must not wait for a room to be made).
   */
  async recorded(meetingId: string): Promise<RoomOnJanus | null> {
    const room = await findRoom(this.deps.db, meetingId).catch(() => null);
    if (!room) return null;
    const control = await this.deps.pool.get(room.instance).catch(() => null);
    return control ? { room, control } : null;
  }

  /** Its Janus went away: the next use checks the room again (and moves it if that Janus is dead). */
  forget(meetingId: string): void {
    this.ready.delete(meetingId);
  }

  private async prepare(meeting: MeetingSummary): Promise<RoomRecord> {
    const { db, pool, log } = this.deps;
    let room = await findRoom(db, meeting.id);
    const instance = placeRoom(room?.instance ?? null, pool.ids(), await roomsPerInstance(db));
    if (instance !== null) {
      if (room) await deleteRoom(db, meeting.id); // its instance is no longer configured
      room = await insertRoom(db, {
        meetingId: meeting.id,
        // Below 2^48 so the id survives JSON numbers in every client.
        janusRoomId: crypto.randomInt(1, 2 ** 48),
        secret: crypto.randomBytes(24).toString('base64url'),
        instance,
      });
    }
    room = await this.failOver(meeting.id, room!);
    const control = await pool.get(room.instance);
    if (!(await control.roomExists(room.janusRoomId))) {
      try {
        await control.createRoom(room.janusRoomId, room.secret, {
          publishers: ROOM_PUBLISHERS,
          description: meeting.id,
          requireE2ee: true,
          bitrate: publisherBitrateCap(this.deps.config.videoLayers),
        });
        log.info({ meetingId: meeting.id, instance: room.instance }, 'media room created');
      } catch (err) {
        if (!(err instanceof JanusError && err.code === 427)) {
          this.deps.recordError(meeting.id, 'media', 'room-create-failed', `Mediarummet kunde inte skapas: ${errorText(err)}`);
          throw err;
        }
        // 427: another server process created it first
      }
    }
    this.startSweeping();
    return room;
  }

  /**
   * A room on a Janus of the pool that no longer answers moves to the least loaded one that does (same room id and
   * secret); the browsers' media reconnect (their relays closed with the dead Janus) then lands there.
   */
  private async failOver(meetingId: string, room: RoomRecord): Promise<RoomRecord> {
    const { db, pool } = this.deps;
    const configured = pool.ids();
    if (configured.length < 2 || (await pool.answers(room.instance))) return room;
    const answering: string[] = [];
    for (const id of configured) if (id !== room.instance && (await pool.answers(id))) answering.push(id);
    const to = failOverTarget(room.instance, configured, answering, answering.length ? await roomsPerInstance(db) : new Map());
    if (to === null) return room;
    const moved = (await moveRoom(db, meetingId, room.instance, to)) ?? room;
    this.deps.log.warn({ meetingId, from: room.instance, to: moved.instance }, 'media room moved off an unreachable janus');
    this.deps.recordError(meetingId, 'media', 'room-moved', 'Mediaservern svarade inte; mötet flyttades till en annan mediaserver');
    return moved;
  }

  private startSweeping(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => void this.sweep().catch((err) => this.deps.log.warn({ err }, 'media room sweep failed')), SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** Destroys the rooms of meetings that are over and empty. */
  async sweep(): Promise<number> {
    let destroyed = 0;
    for (const room of await roomsOfEndedMeetings(this.deps.db, this.deps.now())) {
      if (this.deps.inUse(room.meetingId)) continue;
      try {
        const control = await this.deps.pool.get(room.instance);
        await control.destroyRoom(room.janusRoomId, room.secret);
      } catch (err) {
        this.deps.log.warn({ err, meetingId: room.meetingId }, 'media room could not be destroyed on janus; forgetting it');
      }
      this.ready.delete(room.meetingId);
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

  close(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
  }
}
