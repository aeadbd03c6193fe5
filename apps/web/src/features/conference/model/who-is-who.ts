import type { InvitedParticipant } from '@videomote/contract/media';
import { isKeptOnStage } from '@videomote/contract/meeting-rules';
import { remoteSharer } from './screen-share.ts';
import { pinKey } from './stage.ts';
import { OWN_SCREEN_ID, screenStreamId, type CallState, type StreamTile } from './call-model.ts';

/**
 * Who is who on the meeting screen: which booked participant a tile shows, their role, and what the call knows of
 * each participant's media. Tiles are keyed by connection, which changes on every reconnect; what the user chose
 * (pins) and what the server decided (roles, identity) hang on the participant id, which does not.
 */
export interface WhoIsWho {
  /** The own booked participant id (null for a webcast visitor, or before gettoken answered). */
  ownId: string | null;
  /** This user moderates the meeting: the tiles' admin section is offered. */
  isModerator: boolean;
  /** The participant a tile shows: the own from gettoken, the others from the server's connection list. */
  participantOf(tile: StreamTile): string | null;
  /** The booked role of the participant a tile shows. */
  roleOf(tile: StreamTile): string | undefined;
}

export function whoIsWho(participants: readonly InvitedParticipant[], state: Pick<CallState, 'connections'>): WhoIsWho {
  const own = participants.find((p) => p.currentUser);
  const ownId = own?.id ?? null;
  const roleById = new Map(participants.map((p) => [p.id, p.role]));
  const participantOf = (tile: StreamTile) =>
    tile.isOwn ? ownId : (state.connections.find((c) => c.connectionId === tile.connectionId)?.participantId ?? null);
  return {
    ownId,
    isModerator: Boolean(own?.moderator),
    participantOf,
    roleOf: (tile) => roleById.get(participantOf(tile) ?? ''),
  };
}

/** A pin outlives reconnects: it names the participant (or, for someone unbooked, the name) and camera or screen. */
export function tilePinKey(who: WhoIsWho, tile: StreamTile): string {
  return pinKey(who.participantOf(tile) ?? tile.displayName, tile.videoType);
}

/**
 * A sign language interpreter's camera, while it shows video, is kept on the stage (spec §4), and so is the text
 * interpreter's (Skrivtolk): the rule is meeting-rules' isKeptOnStage.
 */
export function isInterpreterTile(who: WhoIsWho, tile: StreamTile): boolean {
  return tile.videoType === 'camera' && tile.hasVideo && isKeptOnStage(who.roleOf(tile));
}

/** Microphone and camera per participant id (the participants panel's icons); the own from the own publisher. */
export function mediaByParticipant(who: WhoIsWho, state: Pick<CallState, 'connections' | 'own'>): Record<string, { hasAudio: boolean; hasVideo: boolean }> {
  const media: Record<string, { hasAudio: boolean; hasVideo: boolean }> = {};
  for (const c of state.connections) if (c.participantId) media[c.participantId] = { hasAudio: c.hasAudio, hasVideo: c.hasVideo };
  if (who.ownId) media[who.ownId] = { hasAudio: state.own.hasAudio, hasVideo: state.own.hasVideo };
  return media;
}

/** The stream id of the screen being shared (own or another's), which the toolbar can maximise; null when none. */
export function sharedScreenTile(state: CallState): string | null {
  if (state.isSharingScreen) return OWN_SCREEN_ID;
  const other = remoteSharer(state);
  return other ? screenStreamId(other.connectionId) : null;
}
