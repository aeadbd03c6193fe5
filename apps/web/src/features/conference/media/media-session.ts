import type { JanusJS } from 'janus-gateway';
import type { MediaServerMessage } from '@videomote/contract/media';
import type { CallModel, AnnouncedConnection } from '../model/call-model.ts';
import { cameraStreamId, screenStreamId } from '../model/call-model.ts';
import { matchDevice, PUBLISHER_RESTART_MS } from '../model/layout.ts';

/**
 * The only web code that talks to Janus (janus.js through our `/media/{meetingId}` relay). It turns the media
 * session into CallModel events; React never sees Janus. janus.js and webrtc-adapter are loaded on first use, so
 * they travel only with the conference route.
 */
type JanusClass = typeof JanusJS.Janus;
type Handle = JanusJS.PluginHandle;

const VIDEOROOM = 'janus.plugin.videoroom';
const NETWORK_DOWN_AFTER_MS = 20_000;

// janus.js opens its own WebSocket; we hand it a subclass so we can also read and send our own (`videomote`)
// messages on the same socket. The tap is looked up by URL, which is unique per connection attempt.
const taps = new Map<string, (ws: WebSocket) => void>();
class TappedWebSocket extends WebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    const tap = taps.get(String(url));
    taps.delete(String(url));
    tap?.(this);
  }
}

let library: Promise<JanusClass> | null = null;
function loadJanus(): Promise<JanusClass> {
  library ??= Promise.all([import('janus-gateway'), import('webrtc-adapter')]).then(
    ([janusModule, adapterModule]) =>
      new Promise<JanusClass>((resolve) => {
        const Janus = janusModule.default as JanusClass;
        Janus.init({
          debug: false,
          dependencies: Janus.useDefaultDependencies({ adapter: adapterModule.default, WebSocket: TappedWebSocket as never }),
          callback: () => resolve(Janus),
        });
      }),
  );
  return library;
}

export interface MediaSessionOptions {
  meetingId: string;
  token: string;
  /** `config.json` mediaBaseUrl, e.g. ws://host/media. */
  mediaBaseUrl: string;
  /** Always passed on: janus.js would otherwise fall back to a public STUN server. */
  iceServers: RTCIceServer[];
  model: CallModel;
  preferred: { video: string | null; audio: string | null };
  /** Called when the session ends for good (kicked by a moderator). */
  onEnded?: (reason: 'kicked') => void;
}

interface Subscription {
  handle: Handle | null;
  feedId: number;
  tracks: Map<string, MediaStreamTrack>;
}

export class MediaSession {
  private Janus: JanusClass | null = null;
  private janus: JanusJS.Janus | null = null;
  private socket: WebSocket | null = null;
  private publisher: Handle | null = null;
  private readonly subscriptions = new Map<string, Subscription>();
  private localTracks: { audio: MediaStreamTrack | null; video: MediaStreamTrack | null } = { audio: null, video: null };
  private wants = { audio: true, video: false };
  private roomId = 0;
  private serverReady = false;
  private janusReady = false;
  private closed = false;
  private kicked = false;
  private everConnected = false;
  private attempts = 0;
  private generation = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private networkTimer: ReturnType<typeof setTimeout> | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly opts: MediaSessionOptions) {}

  async start(): Promise<void> {
    this.opts.model.connecting();
    try {
      this.Janus = await loadJanus();
    } catch {
      this.opts.model.connectionFailed();
      return;
    }
    if (!this.closed) this.connect();
  }

  /** Leaving the route: hang up everything and stop the camera and microphone. */
  close(): void {
    this.closed = true;
    for (const t of [this.reconnectTimer, this.networkTimer, this.restartTimer]) if (t) clearTimeout(t);
    this.teardown(true);
    this.localTracks.audio?.stop();
    this.localTracks.video?.stop();
    this.localTracks = { audio: null, video: null };
    this.opts.model.disconnected();
  }

  /** Peer connections, for the browser tests' stats hook. */
  peerConnections(): { role: 'publisher' | 'subscriber'; streamId: string; pc: RTCPeerConnection }[] {
    const out: { role: 'publisher' | 'subscriber'; streamId: string; pc: RTCPeerConnection }[] = [];
    const pub = this.publisher?.webrtcStuff?.pc;
    if (pub) out.push({ role: 'publisher', streamId: 'own-camera', pc: pub });
    for (const [streamId, s] of this.subscriptions) {
      const pc = s.handle?.webrtcStuff?.pc;
      if (pc) out.push({ role: 'subscriber', streamId, pc });
    }
    return out;
  }

  setAudio(on: boolean): void {
    if (this.opts.model.getState().connectionStatus !== 'connected' || !this.localTracks.audio) return;
    this.wants.audio = on;
    this.localTracks.audio.enabled = on;
    this.announceState();
  }

  setVideo(on: boolean): void {
    if (this.opts.model.getState().connectionStatus !== 'connected' || !this.localTracks.video) return;
    this.wants.video = on;
    this.localTracks.video.enabled = on;
    this.announceState();
  }

  private announceState(): void {
    const hasAudio = Boolean(this.localTracks.audio?.enabled);
    const hasVideo = Boolean(this.localTracks.video?.enabled);
    this.opts.model.ownState(hasAudio, hasVideo);
    this.sendOwn({ videomote: 'state', hasAudio, hasVideo });
  }

  private sendOwn(message: Record<string, unknown>): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private connect(): void {
    const Janus = this.Janus!;
    const generation = ++this.generation;
    this.serverReady = this.janusReady = false;
    const url = `${this.opts.mediaBaseUrl}/${encodeURIComponent(this.opts.meetingId)}?token=${encodeURIComponent(this.opts.token)}&a=${generation}`;
    taps.set(url, (ws) => {
      this.socket = ws;
      ws.addEventListener('message', (event) => {
        if (generation !== this.generation) return;
        let msg: unknown;
        try {
          msg = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if (msg && typeof msg === 'object' && 'videomote' in msg) this.onServerMessage(msg as MediaServerMessage);
      });
      ws.addEventListener('close', (event) => {
        if (event.code === 4002) this.kicked = true;
      });
    });
    this.janus = new Janus({
      server: url,
      iceServers: this.opts.iceServers,
      destroyOnUnload: true,
      success: () => {
        if (generation !== this.generation) return;
        this.janusReady = true;
        this.whenReady();
      },
      error: () => {
        if (generation !== this.generation) return;
        this.onLost();
      },
    });
  }

  private onServerMessage(msg: MediaServerMessage): void {
    const model = this.opts.model;
    switch (msg.videomote) {
      case 'connected':
        this.roomId = msg.roomId;
        this.serverReady = true;
        model.connected({ connectionId: msg.connectionId, capabilities: msg.capabilities, connections: msg.connections as AnnouncedConnection[] });
        this.whenReady();
        break;
      case 'connectionCreated':
        model.connectionCreated(msg.connection);
        this.syncSubscriptions();
        break;
      case 'connectionUpdated':
        model.connectionUpdated(msg.connection);
        this.syncSubscriptions();
        break;
      case 'connectionDestroyed':
        model.connectionDestroyed(msg.connectionId);
        this.syncSubscriptions();
        break;
      case 'forceDisconnected':
        this.kicked = true;
        break;
      default:
        break;
    }
  }

  private whenReady(): void {
    if (!this.serverReady || !this.janusReady || this.closed) return;
    const wasReconnecting = this.everConnected;
    this.everConnected = true;
    this.attempts = 0;
    if (this.networkTimer) clearTimeout(this.networkTimer);
    this.networkTimer = null;
    if (wasReconnecting) this.opts.model.removeError('networkDisconnected');
    if (this.opts.model.getState().capabilities.publish) void this.publish();
    this.syncSubscriptions();
  }

  /** The connection to the relay was lost (or never came up): retry with backoff unless we were removed. */
  private onLost(): void {
    this.teardown(false);
    this.opts.model.ownAlive(false);
    if (this.closed) return;
    const model = this.opts.model;
    if (this.kicked) {
      this.close();
      this.opts.onEnded?.('kicked');
      return;
    }
    this.attempts += 1;
    if (this.everConnected) {
      model.reconnecting();
      this.networkTimer ??= setTimeout(() => model.networkDisconnected(), NETWORK_DOWN_AFTER_MS);
    } else if (this.attempts >= 3) {
      model.connectionFailed();
    }
    const delay = Math.min(500 * 2 ** Math.min(this.attempts - 1, 4), 8_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.closed) this.connect();
    }, delay);
  }

  /** Drops the Janus session and every handle; `notify` sends the destroy to the server (leaving on purpose). */
  private teardown(notify: boolean): void {
    // Callbacks of the old session must not act any more (e.g. a publisher cleanup must not restart it).
    this.generation += 1;
    const janus = this.janus;
    this.janus = null;
    const handles = [this.publisher, ...[...this.subscriptions.values()].map((s) => s.handle)];
    this.publisher = null;
    for (const [streamId] of this.subscriptions) this.opts.model.remoteMedia(streamId, null);
    this.subscriptions.clear();
    this.socket = null;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    // janus.js skips handle cleanup when its socket is already gone, so close the PeerConnections here.
    for (const h of handles) {
      try {
        h?.hangup(false);
      } catch {
        /* already closed */
      }
    }
    if (janus) {
      try {
        janus.destroy({ cleanupHandles: true, notifyDestroyed: false, unload: !notify });
      } catch {
        /* already gone */
      }
    }
  }

  /** Camera and microphone: the lobby's choices (by label, case-insensitively), audio on and video off first. */
  private async capture(): Promise<boolean> {
    if (this.localTracks.audio || this.localTracks.video) return true;
    const model = this.opts.model;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: { ideal: 1280 }, height: { ideal: 720 } } });
    } catch (err) {
      const name = (err as { name?: string }).name ?? '';
      model.addError(name === 'NotAllowedError' || name === 'SecurityError' ? 'OT_USER_MEDIA_ACCESS_DENIED' : 'OT_HARDWARE_UNAVAILABLE');
      return false;
    }
    try {
      const devices = await navigator.mediaDevices.enumerateDevices();
      const video = matchDevice(devices.filter((d) => d.kind === 'videoinput'), this.opts.preferred.video);
      const audio = matchDevice(devices.filter((d) => d.kind === 'audioinput'), this.opts.preferred.audio);
      const current = { video: stream.getVideoTracks()[0]?.getSettings().deviceId, audio: stream.getAudioTracks()[0]?.getSettings().deviceId };
      if ((video && video.deviceId !== current.video) || (audio && audio.deviceId !== current.audio)) {
        const chosen = await navigator.mediaDevices.getUserMedia({
          audio: audio ? { deviceId: { exact: audio.deviceId } } : true,
          video: { ...(video ? { deviceId: { exact: video.deviceId } } : {}), width: { ideal: 1280 }, height: { ideal: 720 } },
        });
        for (const t of stream.getTracks()) t.stop();
        stream = chosen;
      }
    } catch {
      /* keep the default devices */
    }
    if (this.closed) {
      for (const t of stream.getTracks()) t.stop();
      return false;
    }
    this.localTracks = { audio: stream.getAudioTracks()[0] ?? null, video: stream.getVideoTracks()[0] ?? null };
    if (this.localTracks.audio) this.localTracks.audio.enabled = this.wants.audio;
    if (this.localTracks.video) this.localTracks.video.enabled = this.wants.video;
    return true;
  }

  private async publish(): Promise<void> {
    if (this.publisher || !this.janus) return;
    const janus = this.janus;
    const generation = this.generation;
    if (!(await this.capture()) || this.closed || generation !== this.generation) return;
    const model = this.opts.model;
    const tracks: JanusJS.TrackOption[] = [];
    // dontStop: the same tracks are published again after a reconnect, without asking for the devices again.
    if (this.localTracks.audio) tracks.push({ type: 'audio', capture: this.localTracks.audio, recv: false, dontStop: true });
    if (this.localTracks.video) tracks.push({ type: 'video', capture: this.localTracks.video, recv: false, dontStop: true });
    model.ownMedia(new MediaStream([this.localTracks.audio, this.localTracks.video].filter((t): t is MediaStreamTrack => t !== null)));
    janus.attach({
      plugin: VIDEOROOM,
      success: (handle) => {
        if (generation !== this.generation) return handle.detach();
        this.publisher = handle;
        handle.send({ message: { request: 'join', ptype: 'publisher', room: this.roomId } });
      },
      error: () => model.addError('OT_HARDWARE_UNAVAILABLE'),
      onmessage: (msg, jsep) => {
        const handle = this.publisher;
        if (!handle) return;
        if (msg.videoroom === 'joined') {
          handle.createOffer({
            tracks,
            success: (offer) => handle.send({ message: { request: 'configure', audio: true, video: true }, jsep: offer }),
            error: () => model.addError('OT_HARDWARE_UNAVAILABLE'),
          });
        }
        if (jsep) handle.handleRemoteJsep({ jsep });
      },
      webrtcState: (up) => {
        if (!up) return;
        // The stream-alive flag follows 1 s after the own stream is up (spec §9).
        setTimeout(() => {
          if (generation !== this.generation) return;
          model.ownAlive(true);
          model.removeError('PUBLISHER_RESTARTING');
          this.announceState();
        }, 1_000);
      },
      oncleanup: () => {
        if (generation !== this.generation || this.closed) return;
        // The own publisher died while the session lives: restart it after 1 s (spec §4 Publisher).
        this.publisher = null;
        model.addError('PUBLISHER_RESTARTING');
        this.restartTimer = setTimeout(() => void this.publish(), PUBLISHER_RESTART_MS);
      },
    });
  }

  /** Subscribes to every published feed of the others and drops the ones that went away. */
  private syncSubscriptions(): void {
    if (!this.janus || !this.janusReady || !this.serverReady) return;
    const state = this.opts.model.getState();
    if (!state.capabilities.subscribe) return;
    const wanted = new Map<string, number>();
    for (const c of state.connections) {
      if (c.connectionId === state.connectionId) continue;
      if (c.feedId) wanted.set(cameraStreamId(c.connectionId), c.feedId);
      if (c.screenFeedId) wanted.set(screenStreamId(c.connectionId), c.screenFeedId);
    }
    for (const [streamId, sub] of this.subscriptions) {
      if (wanted.get(streamId) === sub.feedId) continue;
      this.subscriptions.delete(streamId);
      sub.handle?.detach();
      this.opts.model.remoteMedia(streamId, null);
    }
    for (const [streamId, feedId] of wanted) if (!this.subscriptions.has(streamId)) this.subscribe(streamId, feedId);
  }

  private subscribe(streamId: string, feedId: number): void {
    const janus = this.janus!;
    const model = this.opts.model;
    const sub: Subscription = { handle: null, feedId, tracks: new Map() };
    this.subscriptions.set(streamId, sub);
    const current = () => this.subscriptions.get(streamId) === sub;
    janus.attach({
      plugin: VIDEOROOM,
      success: (handle) => {
        if (!current()) return handle.detach();
        sub.handle = handle;
        handle.send({ message: { request: 'join', ptype: 'subscriber', room: this.roomId, streams: [{ feed: feedId }] } });
      },
      error: () => {
        if (current()) this.subscriptions.delete(streamId);
      },
      onmessage: (msg, jsep) => {
        const handle = sub.handle;
        if (!handle || !current()) return;
        if (msg.error) {
          // Typically: the feed is not published yet. Drop and let the next announcement retry.
          this.subscriptions.delete(streamId);
          handle.detach();
          return;
        }
        if (jsep) {
          handle.createAnswer({
            jsep,
            tracks: [{ type: 'data', capture: false }],
            success: (answer) => handle.send({ message: { request: 'start' }, jsep: answer }),
            error: () => model.addError('SUBSCRIBE_FAILED', 'Det gick inte att ta emot en videoström.'),
          });
        }
      },
      onremotetrack: (track, mid, on) => {
        if (!current()) return;
        if (on && track.readyState !== 'ended') sub.tracks.set(mid, track);
        else sub.tracks.delete(mid);
        model.remoteMedia(streamId, sub.tracks.size ? new MediaStream([...sub.tracks.values()]) : null);
      },
      oncleanup: () => {
        sub.tracks.clear();
        if (current()) model.remoteMedia(streamId, null);
      },
    });
  }
}
