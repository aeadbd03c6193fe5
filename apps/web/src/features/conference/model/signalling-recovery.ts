import { mediaFlowedSince } from './ice-recovery.ts';
import { reconnectDelay } from './subscription-plan.ts';

/**
 * The rules of the media session's signalling socket (`/media/{meetingId}`): when a broken one may be replaced with
 * the call kept (a resume), and what happens when the connection is lost.
 * Pure: MediaSession keeps the timers and sockets and does what these answer.
 */

// When a quiet socket counts as dead (pings, an overdue answer with no media arriving, the long silence) is
// SignalWatch's rule in ice-recovery.ts, beside the ICE restarts it sets off.
/** A resume (new socket, same Janus session) that has not come through in this long is given up for a fresh start. */
export const RESUME_TIMEOUT_MS = 10_000;
/** How often, while a resume's socket is still opening, the page looks whether anything arrives from the media server. */
export const RESUME_PATH_CHECK_MS = 250;
/** TCP sends an unanswered opening again 1 s after it, then after 3, 7 and 15 s: a socket this old has lost its first. */
export const SOCKET_FIRST_RETRY_MS = 1_000;

/**
 * Whether a resume's socket that is still opening is replaced by a new one now. One made while the link was down
 * waits on TCP's own retries of its opening, seconds after the link is back (bench: one opened 3.3 s after it was
 * made, with TCP's second retry, 'Återansluter...' on screen until then; another ran out of time into a fresh start). Packets
 * from the media server arriving again after a reading in which none did tell that the link is back: a new socket
 * opens at once. `quietSeen`: a reading since this socket was made found nothing arriving; `arriving`: the latest
 * found something. A socket younger than TCP's first retry is left to it.
 */
export function reopenResumeSocket(connectingForMs: number, quietSeen: boolean, arriving: boolean): boolean {
  return quietSeen && arriving && connectingForMs >= SOCKET_FIRST_RETRY_MS;
}

/** One media connection when its resume completes, against what it was when the socket was given up. */
export interface ConnectionAtResume {
  ice: RTCIceConnectionState;
  signaling: RTCSignalingState;
  /**
   * An ICE restart of it was under way when the socket was given up, was asked for since, or is pending now (for the
   * receiving connection: a request to Janus; one that never got out on the dead socket and was dropped when ICE came
   * back by itself was never made).
   */
  restartAskedMeanwhile: boolean;
  /** Bytes it had received from the media server (media, RTCP, ICE checks) at the give-up, and now. */
  bytesAtGiveUp: number | null;
  bytesNow: number | null;
}

/**
 * Whether a resume leaves this connection as it is rather than restart its ICE as a precaution: it reads connected,
 * its negotiation is settled, no restart was asked for while the socket was dead (one may have been lost on it, and
 * a publisher's would leave its own offer unanswered), and packets came in on it since the give-up, so its path
 * carried it through the outage. Restarting such a connection is work for nothing on a page that may be starved: a
 * new offer and answer through Janus and new ICE checks (the media bench's joiner made two at every link cut; that
 * they were what kept its video away for seconds afterwards was a guess the bench then disproved). Judged per
 * connection: a publisher's path is not proven by what its subscriber connection received.
 */
export function heldThroughResume(c: ConnectionAtResume): boolean {
  return (c.ice === 'connected' || c.ice === 'completed') && c.signaling === 'stable' && !c.restartAskedMeanwhile && mediaFlowedSince(c.bytesAtGiveUp, c.bytesNow);
}

/** A call that was up and has been reconnecting this long tells the user the network has a problem. */
export const NETWORK_DOWN_AFTER_MS = 20_000;
/** Failed first attempts before the user is told 'Anslutning misslyckades' (the retries go on). */
export const FIRST_CONNECT_ATTEMPTS = 3;
/** The server closed the socket because a moderator removed this participant. */
export const KICKED_CLOSE_CODE = 4002;

export interface SocketState {
  everConnected: boolean;
  kicked: boolean;
  closed: boolean;
  /** The Janus session still exists on this page. */
  hasSession: boolean;
  /** The close code of the last socket (0: none seen). */
  lastCloseCode: number;
}

/**
 * Whether a broken socket can be replaced while everything else stays: the call was up, and the socket broke
 * (no close frame, 1006, or it hangs) rather than being closed by the server (refused, removed, media server gone,
 * server stopping), after which only a fresh start helps.
 */
export function canResume(s: SocketState): boolean {
  return s.everConnected && !s.kicked && !s.closed && s.hasSession && (s.lastCloseCode === 0 || s.lastCloseCode === 1006);
}

export type LostOutcome =
  /** Removed by a moderator: the session ends for good. */
  | { kind: 'end' }
  /**
   * Try again after `delay`. `status`: 'reconnecting' for a call that was up (the tiles stay, and the network
   * warning follows after NETWORK_DOWN_AFTER_MS), 'failed' once the first attempts have run out, else unchanged.
   */
  | { kind: 'retry'; delay: number; status: 'reconnecting' | 'failed' | null };

/** The connection was lost (or never came up) for the `attempt`-th time in a row (counted from 1). */
export function afterLost(attempt: number, everConnected: boolean, kicked: boolean): LostOutcome {
  if (kicked) return { kind: 'end' };
  const status = everConnected ? 'reconnecting' : attempt >= FIRST_CONNECT_ATTEMPTS ? 'failed' : null;
  return { kind: 'retry', delay: reconnectDelay(attempt), status };
}

/**
 * ICE restarts did not bring a connection back. One that worked before: the network has a problem
 * ('networkDisconnected'). When no media connection of this page ever connected, this network lets no media
 * through at all (no UDP and no usable TURN): the connection error. Otherwise another connection shows media gets
 * through, and the rebuild is silent.
 */
export function iceGaveUpError(connectionEverConnected: boolean, anyMediaEverConnected: boolean): 'networkDisconnected' | 'connectionFailed' | null {
  if (connectionEverConnected) return 'networkDisconnected';
  return anyMediaEverConnected ? null : 'connectionFailed';
}
