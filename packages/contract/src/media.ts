import { Type, type Static } from 'typebox';
import { MeetingHeading } from './meetings.ts';

/**
 * The live media session (conference spec §3, §7). The browser never talks to Janus directly: it opens
 * `/media/{meetingId}?token=…` (subprotocol `janus-protocol`), where the server checks every Janus API message
 * against the capabilities below before relaying it.
 */

/**
 * `POST /api/meeting/gettoken` body. `consent: true` is the lobby's ticked box, sent with the lobby's request for
 * the token: recorded before the token is made (as `POST /api/lobby/{id}/consent` does), one request instead of two.
 */
export const GetTokenRequest = Type.Object({
  data: Type.Object({
    meetingId: Type.String({ minLength: 1, maxLength: 64 }),
    displayName: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    consent: Type.Optional(Type.Literal(true)),
  }),
});
export type GetTokenRequest = Static<typeof GetTokenRequest>;

export const Capabilities = Type.Object({
  publish: Type.Boolean(),
  subscribe: Type.Boolean(),
  forceUnpublish: Type.Boolean(),
  forceDisconnect: Type.Boolean(),
  /** May publish a screen share: a publisher whose login grants the ScreenShare feature (Grupper). */
  screenShare: Type.Boolean(),
});
export type Capabilities = Static<typeof Capabilities>;

export const TokenData = Type.Object({
  /** Our signed media token: the `/media` socket accepts it together with the session cookie, for one meeting. */
  token: Type.String(),
  /** Which media server family the token is for ("janus"). */
  apiKey: Type.String(),
  /** The media session: the meeting's VideoRoom id on Janus (as a string, it may exceed 2^31). */
  sessionId: Type.String(),
});
export type TokenData = Static<typeof TokenData>;

/** One invited participant as the conference sees it (spec §3 Participant; no personal identity number). */
export const InvitedParticipant = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  role: Type.String(),
  moderator: Type.Boolean(),
  currentUser: Type.Boolean(),
});
export type InvitedParticipant = Static<typeof InvitedParticipant>;

export const ConferenceMeeting = Type.Object({
  /** 0 Meeting, 1 Webcast. */
  type: Type.Integer(),
  id: Type.String(),
  roomId: Type.String(),
  participants: Type.Array(InvitedParticipant),
});
export type ConferenceMeeting = Static<typeof ConferenceMeeting>;

/**
 * The meeting's end-to-end media key (conference spec §9, "an end-to-end encryption secret"): 32 random bytes,
 * base64url, that the browsers encrypt every audio and video frame with (AES-GCM, in an encoded transform) so
 * that Janus forwards only ciphertext. `epoch` grows by one each time the key is replaced (someone was removed
 * from the meeting); frames carry it, so a receiver knows which key opens them.
 */
export const MediaKey = Type.Object({ epoch: Type.Integer({ minimum: 1 }), key: Type.String() });
export type MediaKey = Static<typeof MediaKey>;

/** A STUN or TURN server for the browser's peer connections (RTCIceServer). */
export const IceServer = Type.Object({
  urls: Type.Union([Type.String(), Type.Array(Type.String())]),
  username: Type.Optional(Type.String()),
  credential: Type.Optional(Type.String()),
});
export type IceServer = Static<typeof IceServer>;

export const GetTokenData = Type.Object({
  tokenData: TokenData,
  meeting: ConferenceMeeting,
  capabilities: Capabilities,
  /**
   * The ICE servers this participant uses: the configured ones that need no password and, when TURN is set up,
   * TURN with credentials of its own in coturn's REST form (`expiry:participant`), valid until the meeting's end
   * plus a margin. No static TURN password is ever in here.
   */
  iceServers: Type.Array(IceServer),
  /** The meeting's end-to-end media key (see MediaKey). */
  mediaKey: MediaKey,
});
export type GetTokenData = Static<typeof GetTokenData>;

/** `GET api/meeting/getmeetingbyroomid/{roomId}`: what a public-access visitor may know of a webcast. */
export const MeetingByRoomId = Type.Object({ ...MeetingHeading.properties, roomId: Type.String() });
export type MeetingByRoomId = Static<typeof MeetingByRoomId>;

/** Connection data published as the Janus `display` (spec §3, spelled `particpantId` as the spec does). */
export interface ConnectionData {
  particpantId: string | null;
  displayName: string;
}

/**
 * The Janus `opaque_id` a browser attaches its screen-share publisher handle with. The server announces that
 * handle's feed as the screen share (`screenFeedId`) whatever else the connection publishes or not: without the
 * tag, a share by someone with no camera publisher was taken for their camera.
 */
export const SCREEN_HANDLE_TAG = 'videomote-screen';

/** One connection to the meeting's media session, as the server announces it on `/media`. */
export interface MediaConnection {
  connectionId: string;
  participantId: string | null;
  displayName: string;
  /** The Janus publisher id of this connection's camera, once it publishes. */
  feedId: number | null;
  /** The Janus publisher id of this connection's screen share, while it shares. */
  screenFeedId: number | null;
  hasAudio: boolean;
  hasVideo: boolean;
  moderator: boolean;
  /**
   * Whether this connection's browser encrypts its media end to end (it has encoded transforms). One that cannot
   * puts the whole meeting's media into transit-only protection while it is connected (see `mediaProtection`).
   */
  endToEnd: boolean;
}

/**
 * Our own messages on the `/media` socket, beside the Janus API. They carry the key `videomote` so that they
 * never collide with Janus messages (which carry `janus`).
 */
export type MediaServerMessage =
  /**
   * `resumed`: this is the same connection as before the socket broke (same id, same Janus session, same feeds):
   * the browser keeps its peer connections and claims its Janus session on the new socket.
   */
  | { videomote: 'connected'; connectionId: string; capabilities: Capabilities; roomId: number; connections: MediaConnection[]; resumed?: boolean }
  | { videomote: 'connectionCreated'; connection: MediaConnection }
  | { videomote: 'connectionUpdated'; connection: MediaConnection }
  | { videomote: 'connectionDestroyed'; connectionId: string }
  | { videomote: 'refused'; transaction?: string; reason: string }
  | { videomote: 'forceDisconnected' }
  | { videomote: 'forceUnpublished' }
  /** A meeting admin muted this connection's microphone (conference spec §4 Forced mute). */
  | { videomote: 'muteForced' }
  /** The answer to the browser's `ping`: the socket still carries messages both ways. */
  | { videomote: 'pong' }
  /**
   * The meeting's current media key: sent after `connected`, and again whenever it is replaced because someone
   * was removed from the meeting (they are disconnected first and never get it).
   */
  | ({ videomote: 'mediaKey' } & MediaKey)
  /**
   * Whether the meeting's media is end-to-end encrypted now: sent after `connected` and whenever it changes. False
   * while a connection whose browser lacks encoded transforms is in the meeting: then every browser sends its frames
   * unencrypted by us (DTLS-SRTP still protects them in transit) and accepts unencrypted ones, so that one can take
   * part; each screen says so. True again, and plain frames refused again, once it has left.
   */
  | { videomote: 'mediaProtection'; endToEnd: boolean }
  /**
   * Fresh ICE servers (TURN credentials are short-lived): sent after `connected` and before the ones the browser
   * holds expire, for as long as the socket is open. The browser uses them for its peer connections from then on
   * (an ICE restart after the old ones expired still reaches TURN).
   */
  | { videomote: 'iceServers'; iceServers: IceServer[] };

/** `bye`: the page is going away (pagehide), so the server need not hold the connection for a resume. */
export type MediaClientMessage = { videomote: 'state'; hasAudio: boolean; hasVideo: boolean } | { videomote: 'ping' } | { videomote: 'bye' };

/**
 * How long the server keeps a `/media` connection whose socket broke without a goodbye (a new address, a lost
 * Wi-Fi), with its Janus session, handles and feeds, for the same browser to take it back with a new socket
 * (query `client`, the key the browser chose). Below Janus's session timeout (60 s).
 */
export const MEDIA_RESUME_GRACE_MS = 20_000;

/**
 * The close code of a `/media` socket refused because its person, session or client address already holds as many
 * media sockets as allowed (MEDIA_MAX_SOCKETS_PER_*). The server admits the upgrade only to close it with this code at
 * once: a browser cannot read the status of a refused WebSocket handshake, and the page must tell this refusal apart
 * from a broken network to say why (it keeps retrying: the refusal ends when another socket closes).
 */
export const MEDIA_SOCKETS_FULL_CLOSE_CODE = 4029;

/** `POST /api/meeting/{id}/forceunpublish` and `/kick`: the target connection. */
export const ModerationRequest = Type.Object({ data: Type.Object({ connectionId: Type.String({ minLength: 1, maxLength: 64 }) }) });
