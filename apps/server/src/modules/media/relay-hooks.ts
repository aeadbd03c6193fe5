import type { Capabilities, MediaServerMessage } from '@videomote/contract/media';
import type { FastifyBaseLogger } from 'fastify';
import type { MeetingErrorRecorder } from '../admin/meeting-errors.ts';
import type { ClusterPresence } from './cluster-presence.ts';
import type { RelayHooks } from './janus/janus-relay.ts';
import { screenPublishRefusal } from './janus/screen-share-rule.ts';
import { view, type LiveConnection, type LiveConnections } from './live-connections.ts';
import type { MediaModeration } from './media-moderation.ts';
import type { MediaRooms } from './media-rooms.ts';

/**
 * What a new publisher of a connection is: a tagged screen share always (even when no camera publishes: camera
 * busy, denied or restarting); otherwise the first publisher is the camera and a second one the screen share.
 */
export function publishedAs(handleId: number, videoType: 'screen' | undefined, cameraHandle: number | null): 'camera' | 'screen' {
  return videoType === 'screen' || (cameraHandle !== null && cameraHandle !== handleId) ? 'screen' : 'camera';
}

/** The microphone and camera state a page reports (`state`), or null when it may not publish or the message is malformed. */
export function reportedState(m: Record<string, unknown>, capabilities: Capabilities): { hasAudio: boolean; hasVideo: boolean } | null {
  if (m.videomote !== 'state' || !capabilities.publish) return null;
  if (typeof m.hasAudio !== 'boolean' || typeof m.hasVideo !== 'boolean') return null;
  return { hasAudio: m.hasAudio, hasVideo: m.hasVideo };
}

export interface RelayHookDeps {
  meetingId: string;
  connectionId: string;
  /** The connection once wired (null while connect is still building it). */
  entry(): LiveConnection | null;
  live: LiveConnections;
  presence: ClusterPresence;
  moderation: MediaModeration;
  rooms: MediaRooms;
  log: FastifyBaseLogger;
  recordError: MeetingErrorRecorder;
  /** Tells everyone who may see the connection (here and on other nodes). */
  announce(entry: LiveConnection, message: MediaServerMessage): void;
  /** Kicks a feed of the meeting's room off Janus with the room secret. */
  kickFeed(feedId: number): Promise<void>;
  /** The meeting's connections here are told its protection again (someone left). */
  syncProtection(): void;
}

/** What the server does when Janus or the page says something about one connection's relay. */
export function relayHooks(d: RelayHookDeps): RelayHooks {
  const { meetingId, connectionId } = d;
  const updated = (entry: LiveConnection) => d.announce(entry, { videomote: 'connectionUpdated', connection: view(entry) });
  return {
    onPublished: (handleId, feedId, videoType) => {
      const entry = d.entry();
      if (!entry) return;
      const as = publishedAs(handleId, videoType, entry.cameraHandle);
      // The relay refuses a tagged screen publish that breaks the rules; an untagged second publisher is announced
      // as a screen share, so the same rule holds for it here: its feed is kicked instead.
      const otherSharing = d.live.screenSharer(meetingId, connectionId) !== null;
      if (as === 'screen' && screenPublishRefusal({ allowed: entry.capabilities.screenShare, offer: true, otherSharing })) {
        void d.kickFeed(feedId).catch((err) => d.log.warn({ err }, 'kick of a refused screen share failed'));
        return;
      }
      if (as === 'camera') {
        entry.cameraHandle = handleId;
        entry.connection.feedId = feedId;
      } else {
        entry.screenHandle = handleId;
        entry.screenFeedId = feedId;
      }
      updated(entry);
    },
    onUnpublished: (handleId) => {
      const entry = d.entry();
      if (!entry) return;
      if (entry.cameraHandle === handleId) {
        entry.cameraHandle = null;
        entry.connection.feedId = null;
        entry.connection.hasAudio = entry.connection.hasVideo = false;
      } else if (entry.screenHandle === handleId) {
        entry.screenHandle = null;
        entry.screenFeedId = null;
      }
      updated(entry);
    },
    onFeedLeft: (feedId) => d.presence.feedLeft(meetingId, feedId),
    onOwnMessage: (m) => {
      const entry = d.entry();
      if (m.videomote === 'ping') return entry?.relay.sendOwn({ videomote: 'pong' } satisfies MediaServerMessage);
      if (m.videomote === 'bye') return entry?.relay.goodbye();
      const state = entry ? reportedState(m, entry.capabilities) : null;
      if (!entry || !state) return;
      entry.connection.hasAudio = state.hasAudio;
      entry.connection.hasVideo = state.hasVideo;
      // The owner switched the microphone back on after a forced mute: their own choice, so Janus relays it again.
      if (state.hasAudio && entry.mutedMids.length) void d.moderation.releaseForcedMute(entry);
      updated(entry);
    },
    onRefused: (reason, janus) => {
      d.log.warn({ meetingId, connectionId, janus, reason }, 'media request refused');
      d.recordError(meetingId, 'media', 'request-refused', `Begäran nekades (${String(janus)}): ${reason}`);
    },
    onFailed: (what, detail) => {
      // Its Janus went away: the next connection checks the room again (and moves it if that Janus is dead).
      if (what === 'upstream') d.rooms.forget(meetingId);
      d.recordError(meetingId, 'media', what === 'upstream' ? 'media-server-gone' : `janus-${what}-failed`, `Janus: ${detail}`);
    },
    onClosed: () => {
      d.live.remove(meetingId, connectionId);
      const entry = d.entry();
      if (entry) d.announce(entry, { videomote: 'connectionDestroyed', connectionId });
      d.syncProtection();
    },
  };
}
