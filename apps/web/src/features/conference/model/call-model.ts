import type { Capabilities, MediaConnection } from '@videomote/contract/media';
import { ERROR_TEXTS, type CallErrorKey } from './texts.ts';
import type { Device } from './layout.ts';
import type { StreamStats } from './network-quality.ts';

/**
 * The call state of conference spec §3/§4 as a plain store: the media layer feeds it events, React only
 * subscribes (use-call-state.ts). Every change makes a new state object.
 */
/** `idle` until the first connection attempt starts: nothing has been tried, so nothing has failed. */
export type ConnectionStatus = 'idle' | 'disconnected' | 'connecting' | 'connected';

/** A connection to the media session as the server announces it (camera and screen feeds, media state). */
export type AnnouncedConnection = MediaConnection;

export interface StreamTile {
  streamId: string;
  connectionId: string;
  videoType: 'camera' | 'screen';
  displayName: string;
  hasAudio: boolean;
  hasVideo: boolean;
  isOwn: boolean;
  stream: MediaStream | null;
  /** This page's downlink cannot carry the video now: it is turned off (audio goes on) and the tile says so. */
  videoOffForBandwidth?: boolean;
}

export interface ErrorEntry {
  key: CallErrorKey;
  message: string;
  visible: boolean;
  /** Known keys show yellow, unknown blue (spec §8); every key the call raises is known (CALL_ERROR_KEYS). */
  known: boolean;
  /** Why, when the banner says only that (the connection failure): the chat's ERROR line carries it (spec §4, §8). */
  detail?: string;
}

export interface CallState {
  connectionStatus: ConnectionStatus;
  reconnecting: boolean;
  /** A media connection is restarting its ICE (spec §7 reconnecting / reconnected): the call itself goes on. */
  mediaReconnecting: boolean;
  connectionId: string | null;
  capabilities: Capabilities;
  meetingId: string | null;
  isPublicMeeting: boolean;
  displayName: string;
  connections: AnnouncedConnection[];
  /** MediaStreams by stream id, as the media layer delivers them. */
  media: Record<string, MediaStream>;
  own: { stream: MediaStream | null; hasAudio: boolean; hasVideo: boolean; alive: boolean };
  streamWithFocus: { streamId: string; connectionId: string } | null;
  showMinis: boolean;
  device: Device;
  errors: ErrorEntry[];
  /** True from the own screen publisher's creation until it is destroyed or its media stops (spec §4). */
  isSharingScreen: boolean;
  ownScreen: MediaStream | null;
  /** The forced-mute banner is showing (spec §2 Prompts and banners). */
  forcedMute: boolean;
  /** Last second's figures per remote stream id, for the signal bar (spec §2, §7). */
  stats: Record<string, StreamStats>;
  /** Background blur: whether the browser can, and whether it is on (spec §4 Blur). */
  blur: { supported: boolean; on: boolean };
  /** Per remote stream id: the video layer received, or why no video is (model/video-layers.ts). */
  videoLayers: Record<string, ReceivedVideo>;
}

/** What this viewer receives of one remote video. */
export interface ReceivedVideo {
  /** Turned off because the downlink cannot carry it (the tile says so), or paused because nobody sees it. */
  off: 'bandwidth' | 'hidden' | null;
  /** A screen share: one layer, nothing to choose. */
  singleLayer: boolean;
  /** The simulcast layer Janus says it forwards (0 lowest … 2 full size); null until it has said. */
  substream: number | null;
  temporal: number | null;
}

const NO_CAPABILITIES: Capabilities = { publish: false, subscribe: false, forceUnpublish: false, forceDisconnect: false, screenShare: false };

export const initialCallState = (): CallState => ({
  connectionStatus: 'idle',
  reconnecting: false,
  mediaReconnecting: false,
  connectionId: null,
  capabilities: NO_CAPABILITIES,
  meetingId: null,
  isPublicMeeting: false,
  displayName: '',
  connections: [],
  media: {},
  own: { stream: null, hasAudio: false, hasVideo: false, alive: false },
  streamWithFocus: null,
  showMinis: false,
  device: 'desktop',
  errors: [],
  isSharingScreen: false,
  ownScreen: null,
  forcedMute: false,
  stats: {},
  blur: { supported: false, on: false },
  videoLayers: {},
});

export const OWN_STREAM_ID = 'own-camera';
export const OWN_SCREEN_ID = 'own-screen';
export const cameraStreamId = (connectionId: string) => `camera-${connectionId}`;
export const screenStreamId = (connectionId: string) => `screen-${connectionId}`;

const offForBandwidth = (state: CallState, id: string) => (state.videoLayers[id]?.off === 'bandwidth' ? { videoOffForBandwidth: true } : {});

/** Remote streams: one per published camera or screen feed of another connection. */
export function remoteTiles(state: CallState): StreamTile[] {
  const tiles: StreamTile[] = [];
  for (const c of state.connections) {
    if (c.connectionId === state.connectionId) continue;
    if (c.feedId) {
      const id = cameraStreamId(c.connectionId);
      tiles.push({ streamId: id, connectionId: c.connectionId, videoType: 'camera', displayName: c.displayName, hasAudio: c.hasAudio, hasVideo: c.hasVideo, isOwn: false, stream: state.media[id] ?? null, ...offForBandwidth(state, id) });
    }
    if (c.screenFeedId) {
      const id = screenStreamId(c.connectionId);
      tiles.push({ streamId: id, connectionId: c.connectionId, videoType: 'screen', displayName: c.displayName, hasAudio: false, hasVideo: true, isOwn: false, stream: state.media[id] ?? null, ...offForBandwidth(state, id) });
    }
  }
  return tiles;
}

/** Own camera first (when publishing), then the remote streams. */
export function allTiles(state: CallState): StreamTile[] {
  const tiles = remoteTiles(state);
  if (state.isSharingScreen && state.ownScreen) {
    tiles.unshift({ streamId: OWN_SCREEN_ID, connectionId: state.connectionId ?? 'own', videoType: 'screen', displayName: state.displayName, hasAudio: false, hasVideo: true, isOwn: true, stream: state.ownScreen });
  }
  if (state.own.alive || state.own.stream) {
    tiles.unshift({ streamId: OWN_STREAM_ID, connectionId: state.connectionId ?? 'own', videoType: 'camera', displayName: state.displayName, hasAudio: state.own.hasAudio, hasVideo: state.own.hasVideo, isOwn: true, stream: state.own.stream });
  }
  return tiles;
}

export class CallModel {
  private state: CallState = initialCallState();
  private readonly listeners = new Set<() => void>();

  getState = (): CallState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<CallState>): void {
    this.state = { ...this.state, ...patch };
    this.state = this.withValidFocus(this.state);
    for (const l of this.listeners) l();
  }

  /** Focus is cleared when its stream or its participant is gone (spec §4 Focus). */
  private withValidFocus(s: CallState): CallState {
    if (!s.streamWithFocus) return s;
    const exists = allTiles(s).some((t) => t.streamId === s.streamWithFocus!.streamId);
    return exists ? s : { ...s, streamWithFocus: null };
  }

  setMeeting(meetingId: string, isPublicMeeting: boolean, displayName: string): void {
    this.set({ meetingId, isPublicMeeting, displayName });
  }

  setDevice(device: Device): void {
    if (device !== this.state.device) this.set({ device, showMinis: device === 'phone' ? false : this.state.showMinis });
  }

  connecting(): void {
    this.set({ connectionStatus: 'connecting' });
  }

  connected(info: { connectionId: string; capabilities: Capabilities; connections: AnnouncedConnection[] }): void {
    this.set({ connectionStatus: 'connected', reconnecting: false, connectionId: info.connectionId, capabilities: info.capabilities, connections: info.connections, media: {} });
    // A share already running when this page (re)connects is new to it too, as the media session announces every
    // stream to a newcomer: focused, with minis, like one that starts later.
    this.focusNewShare([]);
    this.removeError('networkDisconnected');
    this.removeError('connectionFailed');
    this.removeError('MEDIA_SOCKETS_FULL');
  }

  connectionCreated(c: AnnouncedConnection): void {
    const before = this.state.connections;
    this.set({ connections: [...before.filter((x) => x.connectionId !== c.connectionId), c] });
    this.focusNewShare(before);
  }

  connectionUpdated(c: AnnouncedConnection): void {
    const before = this.state.connections;
    this.set({ connections: before.map((x) => (x.connectionId === c.connectionId ? c : x)) });
    this.focusNewShare(before);
  }

  /**
   * A remote screen share new to this page since `before`, with nothing focused, takes the focus, with minis (not on
   * phones). It may come as an update, with a connection (a sharer's page that started afresh), or in the list a
   * resumed socket brings (the update was sent while this page's socket hung). A takeover counts as nothing focused:
   * the share it replaces may still be announced when the new one arrives (the server's two announcements race),
   * and focus must then move to the new share, not wait and be lost.
   */
  private focusNewShare(before: AnnouncedConnection[]): void {
    const shared = new Set(before.filter((c) => c.screenFeedId).map((c) => c.connectionId));
    const share = this.state.connections.find((c) => c.connectionId !== this.state.connectionId && c.screenFeedId && !shared.has(c.connectionId));
    if (share && this.focusIsFreeForShare()) {
      this.set({ streamWithFocus: { streamId: screenStreamId(share.connectionId), connectionId: share.connectionId }, showMinis: this.state.device !== 'phone' });
    }
  }

  /** Nothing is focused, or only a screen share (the one a takeover replaces: one sharer at a time). */
  private focusIsFreeForShare(): boolean {
    const focus = this.state.streamWithFocus;
    if (!focus) return true;
    return allTiles(this.state).find((t) => t.streamId === focus.streamId)?.videoType === 'screen';
  }

  connectionDestroyed(connectionId: string): void {
    const media = { ...this.state.media };
    delete media[cameraStreamId(connectionId)];
    delete media[screenStreamId(connectionId)];
    this.set({ connections: this.state.connections.filter((x) => x.connectionId !== connectionId), media });
  }

  remoteMedia(streamId: string, stream: MediaStream | null): void {
    const media = { ...this.state.media };
    if (stream) media[streamId] = stream;
    else delete media[streamId];
    this.set({ media });
  }

  ownMedia(stream: MediaStream | null): void {
    this.set({ own: { ...this.state.own, stream } });
  }

  ownState(hasAudio: boolean, hasVideo: boolean): void {
    this.set({ own: { ...this.state.own, hasAudio, hasVideo } });
  }

  /** When the own camera stream is destroyed, audio and video flags become false (spec §4 Publisher). */
  ownAlive(alive: boolean): void {
    this.set({ own: alive ? { ...this.state.own, alive } : { stream: null, hasAudio: false, hasVideo: false, alive: false } });
  }

  /**
   * Connection failure: back to disconnected with 'Anslutning misslyckades'; `failure` is the known text of why
   * (CONNECTION_FAILURE_TEXTS, or the server's own Swedish answer), which the chat's ERROR notification carries.
   */
  connectionFailed(failure: string): void {
    this.set({ connectionStatus: 'disconnected', reconnecting: false });
    this.addError('connectionFailed', undefined, failure);
  }

  /**
   * The media session will not be started (a webcast visitor whose browser cannot encrypt: the server would refuse
   * it): the status line says the connection failed instead of 'Ansluter...' under a spinner that never ends.
   */
  notStarted(): void {
    this.set({ connectionStatus: 'disconnected', reconnecting: false });
  }

  reconnecting(): void {
    this.set({ reconnecting: true, connections: this.state.connections.filter((c) => c.connectionId === this.state.connectionId), media: {} });
  }

  /** The same media connection back on a new signalling socket: the list as it is now, tiles and media kept. */
  resumed(connections: AnnouncedConnection[]): void {
    const before = this.state.connections;
    this.set({ connections, reconnecting: false });
    this.focusNewShare(before);
  }

  mediaReconnecting(on: boolean): void {
    if (on !== this.state.mediaReconnecting) this.set({ mediaReconnecting: on });
  }

  /** A network disconnect raises networkDisconnected (spec §8). */
  networkDisconnected(): void {
    this.set({ connectionStatus: 'disconnected' });
    this.addError('networkDisconnected');
  }

  disconnected(): void {
    const { device } = this.state;
    // Defaults, except that a connection that ended is not one that was never tried.
    this.state = { ...initialCallState(), device, connectionStatus: 'disconnected' };
    for (const l of this.listeners) l();
  }

  /** Choosing a stream focuses it; choosing it again unfocuses (spec §4 Focus). */
  toggleFocus(streamId: string): void {
    const tile = allTiles(this.state).find((t) => t.streamId === streamId);
    if (!tile) return;
    this.set({ streamWithFocus: this.state.streamWithFocus?.streamId === streamId ? null : { streamId, connectionId: tile.connectionId } });
  }

  maximise(streamId: string): void {
    const tile = allTiles(this.state).find((t) => t.streamId === streamId);
    if (tile) this.set({ streamWithFocus: { streamId, connectionId: tile.connectionId } });
  }

  minimise(): void {
    this.set({ streamWithFocus: null });
  }

  /** Double-click toggles minis, except on phones and only when there are side tiles (spec §2). */
  toggleMinis(hasSideTiles: boolean): void {
    if (this.state.device === 'phone' || !hasSideTiles) return;
    this.set({ showMinis: !this.state.showMinis });
  }

  /** The own screen publisher exists: sharing, with minis shown (not on phones). */
  screenShareStarted(stream: MediaStream): void {
    this.set({ isSharingScreen: true, ownScreen: stream, showMinis: this.state.device !== 'phone' });
  }

  screenShareEnded(): void {
    if (this.state.isSharingScreen || this.state.ownScreen) this.set({ isSharingScreen: false, ownScreen: null });
  }

  /** A meeting admin switched the own microphone off (spec §4 Forced mute): audio off and the banner. */
  muteForced(): void {
    this.set({ own: { ...this.state.own, hasAudio: false }, forcedMute: true });
  }

  dismissForcedMute(): void {
    if (this.state.forcedMute) this.set({ forcedMute: false });
  }

  setStats(stats: Record<string, StreamStats>): void {
    this.set({ stats });
  }

  setVideoLayers(videoLayers: Record<string, ReceivedVideo>): void {
    if (JSON.stringify(videoLayers) !== JSON.stringify(this.state.videoLayers)) this.set({ videoLayers });
  }

  setBlur(blur: { supported: boolean; on: boolean }): void {
    if (blur.supported !== this.state.blur.supported || blur.on !== this.state.blur.on) this.set({ blur });
  }

  /** `message` in place of the key's own text (the server's answer, say); `detail` see ErrorEntry. */
  addError(key: CallErrorKey, message?: string, detail?: string): void {
    const text = message || ERROR_TEXTS[key] || '';
    const entry: ErrorEntry = { key, message: text, visible: Boolean(text), known: key in ERROR_TEXTS, ...(detail ? { detail } : {}) };
    this.set({ errors: [...this.state.errors.filter((e) => e.key !== key), entry] });
  }

  removeError(key: string): void {
    if (this.state.errors.some((e) => e.key === key)) this.set({ errors: this.state.errors.filter((e) => e.key !== key) });
  }
}
