import { MEETING_MAX_PARTICIPANTS } from '@videomote/contract/meetings';
/** How many peer connections (Janus handles with media) one person and one meeting may hold at once. */
export interface PeerConnectionLimits {
  perPerson: number;
  perMeeting: number;
}

/**
 * What one meeting and one Janus instance may hold, counted in PeerConnections: with bundle and rtcp-mux (what
 * janus.js and every current browser negotiate) each PeerConnection holds one UDP port of Janus's RTP range for its
 * lifetime, so the range is the instance's hard ceiling, whatever its CPU could still do.
 */

/** Feeds one participant publishes at most: the camera and a screen share. */
export const FEEDS_PER_PARTICIPANT = 2;
/** The VideoRoom's publisher slots: the main grid's 12 streams (spec §9) and room for screen shares. */
export const ROOM_PUBLISHERS = 24;
/**
 * Viewers a webcast is sized for, each watching the presenter's camera and a screen share: two subscriber
 * PeerConnections with one handle per feed, one with a multistream subscriber.
 */
export const WEBCAST_VIEWERS = 190;

export interface MediaLimits {
  /** One person's PeerConnections in a meeting, over all their tabs. */
  perParticipant: number;
  /** All PeerConnections of a conversation meeting (type 0). */
  perMeeting: number;
  /** All PeerConnections of a webcast (type 1). */
  perWebcast: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  // A subscription to every feed the room can hold, plus the own camera and screen publishers.
  perParticipant: ROOM_PUBLISHERS + FEEDS_PER_PARTICIPANT,
  // Spec §9: at most 10 participants; each publishes camera and screen and subscribes to the others' cameras and a share.
  perMeeting: MEETING_MAX_PARTICIPANTS * (FEEDS_PER_PARTICIPANT + MEETING_MAX_PARTICIPANTS),
  // The viewers, two subscriptions each, and the presenters' own publishers and subscriptions (spec §9: 8 at most).
  perWebcast: WEBCAST_VIEWERS * FEEDS_PER_PARTICIPANT + 20,
};

/** The capacity one Janus instance is sized for by default: a full webcast and four full meetings at the same time. */
export const INSTANCE_CAPACITY = { webcasts: 1, meetings: 4 };

export function instancePeerConnections(limits: MediaLimits = DEFAULT_MEDIA_LIMITS, capacity = INSTANCE_CAPACITY): number {
  return capacity.webcasts * limits.perWebcast + capacity.meetings * limits.perMeeting;
}

/**
 * The RTP port range for a number of PeerConnections: one port each, plus a tenth for PeerConnections being
 * replaced (a restarted publisher's new one opens while the old one closes), rounded up to whole hundreds.
 */
export function rtpPortRangeFor(peerConnections: number, firstPort = 20000): string {
  const ports = Math.ceil((peerConnections * 1.1) / 100) * 100;
  return `${firstPort}-${firstPort + ports - 1}`;
}

export const DEFAULT_RTP_PORT_RANGE = rtpPortRangeFor(instancePeerConnections());

/** How many ports a range such as `20000-20999` holds; 0 when it is not one. */
export function portsIn(range: string): number {
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(range.trim());
  if (!m) return 0;
  const [from, to] = [Number(m[1]), Number(m[2])];
  return from >= 1 && to <= 65535 && to >= from ? to - from + 1 : 0;
}

/** The limits a meeting's sockets are held to, by its type. */
export function limitsFor(meetingType: 0 | 1, limits: MediaLimits): PeerConnectionLimits {
  return { perPerson: limits.perParticipant, perMeeting: meetingType === 1 ? limits.perWebcast : limits.perMeeting };
}
