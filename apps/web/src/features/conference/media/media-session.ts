import type { JanusJS } from 'janus-gateway';
import { SCREEN_HANDLE_TAG, type MediaKey, type MediaServerMessage } from '@videomote/contract/media';
import type { CallModel, AnnouncedConnection } from '../model/call-model.ts';
import { addressesChanged, IceRecovery, mediaFlowedSince, NETWORK_WATCH_FOR_MS, NETWORK_WATCH_MS, SignalWatch } from '../model/ice-recovery.ts';
import { localAddresses } from './local-addresses.ts';
import { applyIceServers } from './ice-servers.ts';
import { matchDevice, PUBLISHER_RESTART_MS } from '../model/layout.ts';
import { wantedFeeds } from '../model/subscription-plan.ts';
import { afterLost, canResume, heldThroughResume, iceGaveUpError, KICKED_CLOSE_CODE, NETWORK_DOWN_AFTER_MS, reopenResumeSocket, RESUME_PATH_CHECK_MS, RESUME_TIMEOUT_MS } from '../model/signalling-recovery.ts';
import { connectedOutcome } from '../model/signalling-resume.ts';
import { isShareDenied, shareAfterFreshStart } from '../model/screen-share.ts';
import { CONNECTION_FAILURE_TEXTS, SETTINGS_TEXTS, SHARE_TEXTS } from '../model/texts.ts';
import { userMediaFailure } from '../../../lib/user-media-error.ts';
import { blurSupported, blurTrack, readBlurChoice, storeBlurChoice, type BlurredTrack } from './background-blur/blur-track.ts';
import { RemoteFeeds } from './remote-feeds.ts';
import { StatsPoller, type PolledConnection } from './stats-poller.ts';
import { VideoLayerControl } from './video-layer-control.ts';
import { prepareMediaE2ee, takeMediaE2ee } from './e2ee/media-e2ee.ts';
import { CAMERA_SIZE, deviceHandover } from '../../../lib/device-handover.ts';
import { browserDetailsOf } from './browser-details.ts';
import type { VideoLayers } from '@videomote/contract/identity';
import { cameraEncodings, FALLBACK_VIDEO_LAYERS, screenEncoding } from '../model/send-layers.ts';
import { withOpusDtx } from '../model/opus-dtx.ts';

/**
 * The only web code that talks to Janus (janus.js through our `/media/{meetingId}` relay). It turns the media
 * session into CallModel events; React never sees Janus. janus.js is loaded on first use, so it travels only with
 * the conference route.
 */
type JanusClass = typeof JanusJS.Janus;
type Handle = JanusJS.PluginHandle;

const VIDEOROOM = 'janus.plugin.videoroom';

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

/** Every offer of a publisher asks for Opus DTX (model/opus-dtx.ts): Janus answers in kind only when it does. */
const askOpusDtx = (jsep: { sdp?: string }) => {
  if (jsep.sdp) jsep.sdp = withOpusDtx(jsep.sdp);
};

let library: Promise<JanusClass> | null = null;
/** janus.js once initialised: a session that finds it so connects in the same task (see `start`). */
let loaded: JanusClass | null = null;
function loadJanus(): Promise<JanusClass> {
  library ??= import('janus-gateway').then(
    (janusModule) =>
      new Promise<JanusClass>((resolve) => {
        const Janus = janusModule.default as JanusClass;
        // Not webrtc-adapter: janus.js reads only its browserDetails (browser-details.ts).
        const adapter = { browserDetails: browserDetailsOf(navigator.userAgent) };
        Janus.init({
          debug: false,
          dependencies: Janus.useDefaultDependencies({ adapter: adapter as never, WebSocket: TappedWebSocket as never }),
          callback: () => resolve((loaded = Janus)),
        });
      }),
  );
  return library;
}

/**
 * Starts loading and initialising janus.js and the end-to-end encryption's worker ahead of the session (the lobby's
 * warm-up and the meeting route call it), so they are ready when gettoken answers instead of being made only then.
 * A failure to load janus.js is left to `start`.
 */
export function prepareMedia(): void {
  loadJanus().catch(() => {
    library = null; // start() tries again and reports the failure
  });
  prepareMediaE2ee();
}

/** When a session whose stored choice is no blur asks whether blur is possible (see start). */
const BLUR_PROBE_AFTER_MS = 3_000;

function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 0);
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
  /** The meeting's end-to-end media key from gettoken (a newer one may follow on the socket). */
  mediaKey?: MediaKey;
  /** `config.json` videoLayers: the simulcast and screen-share bit rates to send. */
  videoLayers?: VideoLayers;
  /**
   * Receive only until `showing()`: a call started before its screen (call-start.ts) captures no camera or
   * microphone while the person still sees the page they came from.
   */
  publishHeld?: boolean;
  /**
   * Whether this person is booked in the meeting (not a webcast visitor). Only a booked participant's browser may
   * take part without encoded transforms (the server refuses a visitor's `e2ee=0`, see media-protection.ts).
   */
  booked?: boolean;
}

export class MediaSession {
  private Janus: JanusClass | null = null;
  private janus: JanusJS.Janus | null = null;
  private socket: WebSocket | null = null;
  /** The socket a resume under way replaces (left open for the server to drop, see resumeSignalling). */
  private resumedFrom: WebSocket | null = null;
  private publisher: Handle | null = null;
  /** Everything received, on one subscriber connection (created with the Janus session). */
  private remote: RemoteFeeds | null = null;
  /** ICE recovery of the own publishers (camera, screen), per handle. */
  private readonly recoveries = new Map<Handle, IceRecovery>();
  /** Which of this page's connections are restarting ICE now: the status says 'Återansluter...' meanwhile. */
  private readonly broken = new Set<string>();
  /** Some media connection of this page has connected at least once: media can get through this network. */
  private mediaEverConnected = false;
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
  /**
   * The key of this page's current `/media` connection: a new socket with it resumes that connection on the server.
   * Renewed at every fresh start (see connectedOutcome): the old key could get back a connection that is not ours.
   */
  private clientKey = crypto.randomUUID();
  private url = '';
  private lastCloseCode = 0;
  /** Pings the `/media` socket and says when it is dead (an address change leaves it hanging): ice-recovery.ts. */
  private signal: SignalWatch | null = null;
  private resuming = false;
  /** Receiving only until the meeting screen shows (see `showing`). */
  private publishHeld: boolean;
  /** Called when the session ends for good (kicked by a moderator); set by the meeting screen that shows it. */
  onEnded: ((reason: 'kicked') => void) | null = null;
  /** How many times the signalling socket was replaced with the connection kept (the browser tests read it). */
  resumes = 0;
  private networkTimer: ReturnType<typeof setTimeout> | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  /** The second publisher handle: the own screen share (spec §4 Screen sharing). */
  private screenHandle: Handle | null = null;
  private screenStream: MediaStream | null = null;
  /** The connection whose session was lost while it shared (see holdScreenShare). */
  private screenSharedFrom: string | null = null;
  /** The blurred copy of the camera that is sent instead of the camera itself while blur is on. */
  private blurred: BlurredTrack | null = null;
  private readonly stats: StatsPoller;
  /** E2EE: every frame sent is encrypted with the meeting key, every frame received decrypted (see MediaE2ee). */
  readonly e2ee = takeMediaE2ee();
  /** Which simulcast layer of each remote video this page receives (tile sizes, downlink, interpreter first). */
  readonly videoLayers: VideoLayerControl;
  /**
   * Settles once this page has answered Janus's first offer of what it receives (the connection then comes up
   * without the main thread), has nothing to receive, or has stopped trying: the meeting route waits for it before
   * the screen's first render (call-start.ts).
   */
  readonly receiving = settleable();

  constructor(private readonly opts: MediaSessionOptions) {
    this.publishHeld = opts.publishHeld ?? false;
    this.stats = new StatsPoller(opts.model, () => this.peerConnections());
    this.videoLayers = new VideoLayerControl(opts.model, () => this.remote);
    this.stats.onSubscriberReports = (reports) => this.videoLayers.update(reports);
    if (opts.mediaKey) this.e2ee.setKey(opts.mediaKey.epoch, opts.mediaKey.key);
  }

  /** The meeting screen shows this session: from now on the own camera and microphone are captured and sent. */
  showing(): void {
    if (!this.publishHeld) return;
    this.publishHeld = false;
    if (this.serverReady && this.janusReady && !this.closed && this.opts.model.getState().capabilities.publish) void this.publish();
  }

  /** Leaving the page (reload, another site, closing the tab): tell the server not to hold the connection. */
  private readonly onPageHide = () => this.sendOwn({ videomote: 'bye' });

  /**
   * Opens the `/media` socket. With janus.js already loaded (the meeting route preloads it) the socket is made in
   * this very task: awaiting would let the call screen's render, which every model change schedules as a microtask,
   * run first (355 ms in the media bench under load) with the socket not yet asked for.
   */
  async start(): Promise<void> {
    // A visitor's browser that cannot encrypt would bring the presenters down to plain frames (the server refuses its
    // `e2ee=0`): it is told why it gets no picture or sound. Not E2EE_UNSUPPORTED's text: nobody else sees anything.
    if (!this.e2ee.supported && !this.opts.booked) {
      this.opts.model.notStarted();
      this.opts.model.addError('E2EE_UNSUPPORTED_VISITOR');
      this.receiving.done();
      return;
    }
    window.addEventListener('pagehide', this.onPageHide);
    if (loaded) this.Janus = loaded;
    else {
      try {
        this.Janus = await loadJanus();
      } catch {
        this.opts.model.connectionFailed(CONNECTION_FAILURE_TEXTS.mediaLibrary);
        this.receiving.done();
        return;
      }
    }
    if (!this.closed) this.connect();
    this.opts.model.connecting();
    // The probe makes a WebGL context: 200 ms of main thread in the media bench, which every step of joining would
    // wait behind. Only a stored 'blur on' needs it now (the first publisher sends the blurred camera); otherwise
    // the settings' toggle can wait until the call has connected and the page is idle.
    if (readBlurChoice()) this.probeBlur();
    else setTimeout(() => whenIdle(() => this.probeBlur()), BLUR_PROBE_AFTER_MS);
  }

  private probeBlur(): void {
    if (this.closed) return;
    const supported = blurSupported();
    this.opts.model.setBlur({ supported, on: supported && readBlurChoice() });
  }

  /** Leaving the route: hang up everything and stop the camera and microphone. */
  close(): void {
    this.closed = true;
    this.receiving.done();
    window.removeEventListener('pagehide', this.onPageHide);
    for (const t of [this.reconnectTimer, this.networkTimer, this.restartTimer]) if (t) clearTimeout(t);
    this.signal?.stop();
    window.removeEventListener('online', this.onNetworkChange);
    connectionInfo()?.removeEventListener('change', this.onNetworkChange);
    this.stats.stop();
    this.teardown(true);
    this.blurred?.stop();
    this.blurred = null;
    this.localTracks.audio?.stop();
    this.localTracks.video?.stop();
    this.localTracks = { audio: null, video: null };
    this.e2ee.close();
    this.opts.model.disconnected();
  }

  /**
   * Peer connections, for the stats poller and the browser tests' hook: the publishers', then one entry per received
   * stream — all received streams share the one subscriber connection, each entry names the `mid`s that are its.
   */
  peerConnections(): PolledConnection[] {
    const out: PolledConnection[] = [];
    const pub = this.publisher?.webrtcStuff?.pc;
    if (pub) out.push({ role: 'publisher', streamId: 'own-camera', pc: pub });
    const screen = this.screenHandle?.webrtcStuff?.pc;
    if (screen) out.push({ role: 'publisher', streamId: 'own-screen', pc: screen });
    for (const s of this.remote?.streams() ?? []) out.push({ role: 'subscriber', ...s });
    return out;
  }

  /** The subscriber connection (null until something is received), for the browser tests' hook. */
  subscriberConnection(): RTCPeerConnection | null {
    return this.remote?.pc ?? null;
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
    if (this.blurred) this.blurred.track.enabled = on;
    void stillWhileOff(this.publisher?.webrtcStuff?.pc, on);
    this.announceState();
  }

  /** The video track that is sent and shown: the blurred copy while blur is on, else the camera. */
  private sentVideo(): MediaStreamTrack | null {
    return this.blurred?.track ?? this.localTracks.video;
  }

  private showOwn(): void {
    this.opts.model.ownMedia(new MediaStream([this.localTracks.audio, this.sentVideo()].filter((t): t is MediaStreamTrack => t !== null)));
  }

  /** Swaps what the own publisher sends on one media line, without renegotiating the call. */
  private async replaceSent(kind: 'audio' | 'video', track: MediaStreamTrack | null): Promise<void> {
    const pc = this.publisher?.webrtcStuff?.pc;
    const transceiver = pc?.getTransceivers().find((t) => t.receiver.track?.kind === kind && t.direction !== 'inactive');
    if (transceiver) await transceiver.sender.replaceTrack(track);
  }

  /** 'Suddig bakgrund' / 'Normal bakgrund': stored, and applied at once to the live camera (spec §4 Blur). */
  async setBlur(on: boolean): Promise<void> {
    const model = this.opts.model;
    if (!model.getState().blur.supported) return;
    storeBlurChoice(on);
    model.setBlur({ supported: true, on });
    const camera = this.localTracks.video;
    if (!camera) return; // the stored choice is applied when the next publisher is created
    const old = this.blurred;
    this.blurred = on ? this.startBlur(camera) : null;
    await this.replaceSent('video', this.sentVideo());
    old?.stop();
    this.showOwn();
  }

  private startBlur(camera: MediaStreamTrack): BlurredTrack {
    const blurred: BlurredTrack = blurTrack(camera, () => void this.blurFailed(blurred));
    blurred.track.enabled = camera.enabled;
    return blurred;
  }

  /**
   * The model or its WASM could not be loaded or run: say so and send the camera as it is. The stored choice is
   * kept, so the next call tries again (the failure may have been the network's).
   */
  private async blurFailed(failed: BlurredTrack): Promise<void> {
    if (this.blurred !== failed) return;
    this.blurred = null;
    this.opts.model.setBlur({ supported: true, on: false });
    this.opts.model.addError('BLUR_FAILED');
    await this.replaceSent('video', this.sentVideo());
    failed.stop();
    this.showOwn();
  }

  /** The blur pipeline's figures (model load time, per-frame times), for the browser tests. */
  blurReport(): ReturnType<BlurredTrack['report']> | null {
    return this.blurred?.report() ?? null;
  }

  /**
   * Settings dialog: another camera or microphone while the call goes on. The new track replaces the old one on
   * the publisher's sender (RTCRtpSender.replaceTrack), so nobody has to renegotiate. Throws the spec's text.
   */
  async switchDevice(kind: 'audio' | 'video', deviceId: string): Promise<void> {
    let track: MediaStreamTrack | undefined;
    try {
      const stream = await navigator.mediaDevices.getUserMedia(
        kind === 'video' ? { video: { deviceId: { exact: deviceId }, ...CAMERA_SIZE } } : { audio: { deviceId: { exact: deviceId } } },
      );
      track = kind === 'video' ? stream.getVideoTracks()[0] : stream.getAudioTracks()[0];
    } catch {
      track = undefined;
    }
    if (!track) throw new DeviceError(kind);
    if (this.closed) {
      track.stop();
      return;
    }
    const old = this.localTracks[kind];
    track.enabled = old ? old.enabled : this.wants[kind];
    this.localTracks[kind] = track;
    if (kind === 'video' && this.blurred) {
      const oldBlur = this.blurred;
      this.blurred = this.startBlur(track);
      await this.replaceSent('video', this.blurred.track);
      oldBlur.stop();
    } else {
      await this.replaceSent(kind, track);
    }
    old?.stop();
    this.showOwn();
  }

  /** The camera and microphone in use, by deviceId (the settings dialog preselects them). */
  currentDevices(): { audio: string | null; video: string | null } {
    return {
      audio: this.localTracks.audio?.getSettings().deviceId ?? null,
      video: this.localTracks.video?.getSettings().deviceId ?? null,
    };
  }

  /** Whether the own screen share is running (its publisher exists). */
  get sharing(): boolean {
    return this.screenHandle !== null || this.screenStream !== null;
  }

  /**
   * Starts the own screen share. `beforePublish` runs after the user picked a screen and before it is sent: the
   * takeover asks the server to stop the other share there, so a cancelled picker never ends someone's share.
   * A denied picker is silent; other failures are shown (spec §4).
   */
  async startScreenShare(beforePublish?: () => Promise<void>): Promise<void> {
    const model = this.opts.model;
    if (this.sharing || !this.janus || !model.getState().capabilities.publish) return;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    } catch (err) {
      if (!isShareDenied(err)) model.addError('SCREEN_SHARE_FAILED', SHARE_TEXTS.failed);
      return;
    }
    const track = stream.getVideoTracks()[0];
    if (!track || this.closed) {
      for (const t of stream.getTracks()) t.stop();
      return;
    }
    try {
      await beforePublish?.();
    } catch {
      for (const t of stream.getTracks()) t.stop();
      model.addError('SCREEN_SHARE_FAILED', SHARE_TEXTS.failed);
      return;
    }
    this.screenStream = stream;
    // Keep the resolution and drop frames when the link is short: blurred text is unreadable, a slow one is not.
    track.contentHint = 'text';
    const screen = screenEncoding(this.opts.videoLayers ?? FALLBACK_VIDEO_LAYERS);
    await track.applyConstraints({ frameRate: { max: screen.maxFramerate } }).catch(() => undefined);
    // Media stopped from the browser's own "stop sharing" bar ends the share too.
    track.addEventListener('ended', () => this.stopScreenShare());
    model.screenShareStarted(stream);
    this.publishScreen(stream);
  }

  /** The screen publisher for the captured `stream`, on this session (a second VideoRoom handle). */
  private publishScreen(stream: MediaStream): void {
    const model = this.opts.model;
    const track = stream.getVideoTracks()[0]!;
    const screen = screenEncoding(this.opts.videoLayers ?? FALLBACK_VIDEO_LAYERS);
    const janus = this.janus;
    const generation = this.generation;
    const fail = () => {
      if (generation !== this.generation) return;
      model.addError('SCREEN_SHARE_FAILED', SHARE_TEXTS.failed);
      this.stopScreenShare();
    };
    janus?.attach({
      plugin: VIDEOROOM,
      // Tells the server this publisher is the screen share, also when no camera publishes (see the tag).
      opaqueId: SCREEN_HANDLE_TAG,
      success: (handle) => {
        if (generation !== this.generation || this.screenStream !== stream) return handle.detach();
        this.screenHandle = handle;
        handle.send({ message: { request: 'join', ptype: 'publisher', room: this.roomId } });
      },
      error: fail,
      // The guards: after a fresh start the same stream has a new handle, and the old one must not act on it.
      iceState: (state) => {
        if (this.screenHandle && generation === this.generation) this.recoveries.get(this.screenHandle)?.update(state);
      },
      onmessage: (msg, jsep) => {
        const handle = this.screenHandle;
        if (!handle || this.screenStream !== stream || generation !== this.generation) return;
        if (msg.error) return fail();
        if (msg.videoroom === 'joined') {
          handle.createOffer({
            // One full-size layer at a frame rate for text (no simulcast: a share is read, not glanced at).
            // dontStop: a lost session's cleanup must leave the capture running, to publish it again (holdScreenShare);
            // stopScreenShare stops it.
            tracks: [{ type: 'video', capture: track, recv: false, dontStop: true }],
            success: (offer) => {
              void capSender(handle.webrtcStuff?.pc, screen.maxBitrate);
              this.watchPublisherIce('screen', handle);
              handle.send({ message: { request: 'configure', audio: false, video: true }, jsep: this.e2ee.declare(offer) });
            },
            error: fail,
          });
        }
        // Kicked by a takeover (or the publisher left): the share is over.
        if (msg.videoroom === 'event' && (msg.leaving === 'ok' || msg.unpublished === 'ok' || msg.error_code)) this.stopScreenShare();
        if (jsep) handle.handleRemoteJsep({ jsep });
      },
      // E2EE: the sender's transform, before janus.js creates the offer.
      onlocaltrack: () => this.e2ee.protect(this.screenHandle?.webrtcStuff?.pc),
      oncleanup: () => {
        // Not the cleanup of a lost session: its share is published again on the next (see teardown).
        if (generation === this.generation && this.screenStream === stream) this.stopScreenShare();
      },
    });
  }

  /**
   * The session is lost: its screen publisher goes with it (janus.destroy cleans the handle), the capture stays and
   * the sharer still sees 'Du delar skärm'. Which connection shared is noted, for whenReady's decision.
   */
  private holdScreenShare(): void {
    if (!this.screenStream) return;
    this.forgetIce(this.screenHandle, 'screen');
    this.screenHandle = null;
    this.screenSharedFrom = this.opts.model.getState().connectionId;
  }

  /** After a fresh start: the held share is published again, or ends (shareAfterFreshStart says which). */
  private resumeScreenShare(): void {
    const stream = this.screenStream;
    if (!stream || this.screenHandle) return;
    const live = stream.getVideoTracks()[0]?.readyState === 'live';
    const outcome = shareAfterFreshStart(this.opts.model.getState(), { live, sharedFrom: this.screenSharedFrom });
    this.screenSharedFrom = null;
    if (outcome === 'publish') this.publishScreen(stream);
    else this.stopScreenShare();
  }

  /** Ends the own screen share: its publisher is destroyed and isSharingScreen goes false. */
  stopScreenShare(): void {
    const handle = this.screenHandle;
    const stream = this.screenStream;
    this.forgetIce(handle, 'screen');
    this.screenHandle = null;
    this.screenStream = null;
    for (const t of stream?.getTracks() ?? []) t.stop();
    if (handle) {
      try {
        handle.detach();
      } catch {
        /* already gone */
      }
    }
    this.opts.model.screenShareEnded();
  }

  /** A meeting admin switched the own microphone off (spec §4 Forced mute). */
  private onMuteForced(): void {
    if (this.localTracks.audio) this.localTracks.audio.enabled = false;
    this.wants.audio = false;
    this.announceState();
    this.opts.model.muteForced();
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
    const url = `${this.opts.mediaBaseUrl}/${encodeURIComponent(this.opts.meetingId)}?token=${encodeURIComponent(this.opts.token)}&client=${this.clientKey}&a=${generation}${this.e2ee.supported ? '' : '&e2ee=0'}`;
    this.url = url;
    this.tap(url, generation);
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
        // A late close of a socket already replaced by a resume: the live one is fine.
        if (this.resuming || this.socket?.readyState === WebSocket.OPEN) return;
        if (this.canResume()) this.resumeSignalling();
        else this.onLost();
      },
    });
  }

  /** Reads our own messages on the socket janus.js opens for `url` next (the first one, or a resume's). */
  private tap(url: string, generation: number): void {
    taps.set(url, (ws) => {
      this.socket = ws;
      this.signal?.reset();
      ws.addEventListener('message', (event) => {
        if (generation !== this.generation || ws !== this.socket) return;
        this.signal?.heard();
        let msg: unknown;
        try {
          msg = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if (msg && typeof msg === 'object' && 'videomote' in msg) this.onServerMessage(msg as MediaServerMessage);
      });
      ws.addEventListener('close', (event) => {
        if (ws !== this.socket) return;
        this.lastCloseCode = event.code;
        if (event.code === KICKED_CLOSE_CODE) this.kicked = true;
      });
    });
  }

  /** Whether a broken socket can be replaced while everything else stays (see canResume in the model). */
  private canResume(): boolean {
    return canResume({ everConnected: this.everConnected, kicked: this.kicked, closed: this.closed, hasSession: this.janus !== null, lastCloseCode: this.lastCloseCode });
  }

  /**
   * A new socket for the same connection: the server hands it the connection it held (same id, Janus session,
   * handles and feeds) and janus.js claims its session on it. The peer connections are not touched; an ICE restart
   * that went out on the dead socket is sent again. If the server no longer holds the connection, a fresh start.
   */
  private resumeSignalling(): void {
    const janus = this.janus;
    if (!janus || this.resuming) return;
    const generation = this.generation;
    this.resuming = true;
    this.setBroken('signalling', true);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      if (!this.resuming || generation !== this.generation) return;
      this.resuming = false;
      this.setBroken('signalling', false);
      if (!ok) return this.onLost();
      this.resumedFrom = null; // the server dropped it when the new socket took over
      this.signal?.reset();
      // The receiving connection's requests go on once the restarts are decided: let go first, it would send a
      // restart still waiting from the outage, and restartNow then ask Janus for a second behind it.
      const remote = this.remote;
      void this.restartWherePathBroke(generation, atGiveUp).finally(() => remote?.resumed());
      void this.watchAddresses(generation, addresses, bytesAtGiveUp);
    };
    // The socket broke without a close (an address change, most likely): note the browser's addresses now, to
    // restart once more when its list changes (watchAddresses), the media received so far, and each connection.
    const addresses: Promise<string[]> = localAddresses().catch(() => []);
    const bytesAtGiveUp = this.receivedBytes().catch(() => null);
    const atGiveUp = this.markConnections();
    const timer = setTimeout(() => done(false), RESUME_TIMEOUT_MS);
    this.resumes += 1;
    this.resumedFrom = this.socket;
    // The old socket is left to the server, which drops it when the new one takes over: a close frame from here
    // could reach it first and end the connection that is being resumed.
    let attempt = 0;
    void this.reopenWhenPathReturns(generation, () => {
      const mine = ++attempt;
      this.tap(this.url, generation);
      janus.reconnect({ success: () => mine === attempt && done(true), error: () => mine === attempt && done(false) });
      return this.socket;
    });
  }

  /** Every media connection with its ICE recovery: the own publishers and the subscriber connection. */
  private iceConnections(): IceConnection[] {
    const all = [...this.recoveries].map(
      ([handle, recovery]): IceConnection => ({ recovery, pc: handle.webrtcStuff?.pc ?? null, restarts: () => recovery.restartRequests }),
    );
    const remote = this.remote;
    // The subscriber's restarts are requests to Janus: one that never got out on the dead socket was never made.
    if (remote?.iceRecovery) all.push({ recovery: remote.iceRecovery, pc: remote.pc, restarts: () => remote.restartRequests });
    return all;
  }

  /** Each media connection as it was when the socket was given up, for heldThroughResume at the resume. */
  private markConnections(): ConnectionMark[] {
    return this.iceConnections().map(({ recovery, pc, restarts }) => ({ recovery, restarts: restarts(), bytes: statBytes(pc, 'transport').catch(() => null) }));
  }

  /**
   * The resume came through: every connection restarts ICE (an ICE restart asked for on the dead socket is asked for
   * again, and the path may have moved with the socket's) except those whose path carried them through the outage
   * (heldThroughResume). One made since the give-up, with nothing to compare, restarts too.
   */
  private async restartWherePathBroke(generation: number, atGiveUp: ConnectionMark[]): Promise<void> {
    const now = this.iceConnections();
    const held = await Promise.all(
      now.map(async ({ recovery, pc, restarts }) => {
        const mark = atGiveUp.find((m) => m.recovery === recovery);
        if (!mark || !pc) return false;
        const [bytesAtGiveUp, bytesNow] = await Promise.all([mark.bytes, statBytes(pc, 'transport').catch(() => null)]);
        const since = restarts();
        const restartAskedMeanwhile = mark.restarts.pending || since.pending || since.asked !== mark.restarts.asked;
        return heldThroughResume({ ice: pc.iceConnectionState, signaling: pc.signalingState, restartAskedMeanwhile, bytesAtGiveUp, bytesNow });
      }),
    );
    if (this.closed || generation !== this.generation) return;
    now.forEach(({ recovery }, i) => held[i] || recovery.restartNow());
  }

  /**
   * Opens a resume's socket (`open`), and while it is still opening reads every quarter second whether packets
   * arrive from the media server on any connection: when they arrive again after a quiet reading the link is back,
   * and the socket made while it was down would wait on TCP's retries, so it is closed and another opened
   * (reopenResumeSocket). Once a resume: on a starved machine a reading can find nothing while media flows, and a
   * second replacement (bench) closed a socket that was about to open. One closed while opening answers nothing;
   * janus.js's handlers on it report only an error that the attempt count no longer heeds.
   */
  private async reopenWhenPathReturns(generation: number, open: () => WebSocket | null): Promise<void> {
    const socket = open();
    const madeAt = Date.now();
    let quietSeen = false;
    let before = await transportBytesReceived(this.peerConnections());
    const stillOpening = () => this.resuming && generation === this.generation && socket !== null && socket === this.socket && socket.readyState === WebSocket.CONNECTING;
    while (stillOpening()) {
      await new Promise((r) => setTimeout(r, RESUME_PATH_CHECK_MS));
      const now = await transportBytesReceived(this.peerConnections());
      const arriving = mediaFlowedSince(before, now);
      before = now;
      if (!stillOpening()) return;
      if (!arriving) quietSeen = true;
      else if (reopenResumeSocket(Date.now() - madeAt, quietSeen, arriving)) {
        socket?.close();
        open();
        return;
      }
    }
  }

  /**
   * After a resume: Chromium learns a new address seconds after the change, so a restart made at once may have
   * gathered on the old one. When its address list changes from what it was at the resume, every connection of
   * this session restarts ICE once more (the same RTCPeerConnections), now on the new address. Not watched when
   * media arrived since the socket was given up: the path has not moved (the server, or a machine starved of CPU,
   * was only slow to answer), and the watch makes a throwaway peer connection every NETWORK_WATCH_MS for seconds.
   */
  private async watchAddresses(generation: number, before: Promise<string[]>, bytesAtGiveUp: Promise<number | null>): Promise<void> {
    if (mediaFlowedSince(await bytesAtGiveUp, await this.receivedBytes().catch(() => null))) return;
    const atResume = await before;
    const end = Date.now() + NETWORK_WATCH_FOR_MS;
    while (Date.now() < end && !this.closed && generation === this.generation && !this.resuming) {
      await new Promise((r) => setTimeout(r, NETWORK_WATCH_MS));
      if (!addressesChanged(atResume, await localAddresses().catch(() => []))) continue;
      if (this.closed || generation !== this.generation) return;
      for (const r of this.recoveries.values()) r.restartNow();
      this.remote?.networkChanged();
      return;
    }
  }

  private startPinging(): void {
    if (this.signal) return;
    this.signal = new SignalWatch({
      ping: () => {
        if (!this.resuming) this.sendOwn({ videomote: 'ping' });
      },
      mediaBytes: async () => {
        const [received, sent] = await Promise.all([this.receivedBytes(), statBytes(this.publisher?.webrtcStuff?.pc, 'outbound-rtp')]);
        return { received, sent };
      },
      dead: () => {
        if (!this.closed && !this.resuming && this.socket && this.canResume()) this.resumeSignalling();
        else this.signal?.reset();
      },
    });
    // Where the browser tells of a network change (Wi-Fi to mobile on a laptop or phone), look at once.
    window.addEventListener('online', this.onNetworkChange);
    connectionInfo()?.addEventListener('change', this.onNetworkChange);
  }

  private readonly onNetworkChange = () => this.signal?.suspect();

  /** Media bytes received so far on the subscriber connection (null: it receives nothing), for the socket watch. */
  private receivedBytes(): Promise<number | null> {
    return statBytes(this.remote?.pc, 'inbound-rtp');
  }

  private onServerMessage(msg: MediaServerMessage): void {
    const model = this.opts.model;
    switch (msg.videomote) {
      case 'connected':
        switch (connectedOutcome(msg, { resuming: this.resuming, connectionId: model.getState().connectionId })) {
          case 'resumed':
            // The same connection back on a new socket: same tiles, same peer connections.
            model.resumed(msg.connections as AnnouncedConnection[]);
            this.syncSubscriptions();
            return;
          case 'startAfresh':
            // E.g. the resume reached another app node (ours was killed): it made a connection of its own, which
            // onLost closes; the fresh start then comes with a new key.
            this.resuming = false;
            this.setBroken('signalling', false);
            this.onLost();
            return;
          case 'fresh':
            break;
        }
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
      case 'muteForced':
        this.onMuteForced();
        break;
      case 'forceUnpublished':
        this.stopScreenShare();
        break;
      case 'mediaKey':
        this.e2ee.setKey(msg.epoch, msg.key); // E2EE: the key at connect, and its replacement after a removal
        break;
      case 'iceServers':
        // TURN credentials are short-lived: the renewed ones for this page's peer connections and those to come.
        applyIceServers(this.opts.iceServers, msg.iceServers as RTCIceServer[], [...this.peerConnections().map((c) => c.pc), this.remote?.pc]);
        break;
      case 'mediaProtection':
        this.e2ee.setEndToEnd(msg.endToEnd);
        // A browser that cannot encrypt says so itself (whenReady); the others learn it here.
        if (this.e2ee.supported && !msg.endToEnd) model.addError('MEDIA_TRANSIT_ONLY');
        else model.removeError('MEDIA_TRANSIT_ONLY');
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
    // E2EE: a browser without encoded transforms still takes part (a job seeker on an old phone must not be shut out
    // of the call): it told the server so when it connected (`e2ee=0`), the server put the meeting's media into
    // transit-only protection while it is there, and every screen says so.
    if (!this.e2ee.supported) this.opts.model.addError('E2EE_UNSUPPORTED');
    if (this.opts.model.getState().capabilities.publish && !this.publishHeld) void this.publish();
    this.resumeScreenShare();
    this.syncSubscriptions();
    this.stats.start();
    this.startPinging();
  }

  /** The connection to the relay was lost (or never came up): retry with backoff unless we were removed. */
  private onLost(): void {
    this.receiving.done();
    this.teardown(false);
    this.opts.model.ownAlive(false);
    if (this.closed) return;
    const model = this.opts.model;
    this.attempts += 1;
    const outcome = afterLost(this.attempts, this.everConnected, this.kicked);
    if (outcome.kind === 'end') {
      this.close();
      this.onEnded?.('kicked');
      return;
    }
    // A fresh start is a new connection: it must not be handed back the one given up (see connectedOutcome).
    this.clientKey = crypto.randomUUID();
    if (outcome.status === 'reconnecting') {
      model.reconnecting();
      this.networkTimer ??= setTimeout(() => {
        model.networkDisconnected();
        // Told the connection is gone, the user no longer shares (spec §4: not past the session): a held share ends.
        if (this.screenStream && !this.screenHandle) this.stopScreenShare();
      }, NETWORK_DOWN_AFTER_MS);
    } else if (outcome.status === 'failed') {
      model.connectionFailed(CONNECTION_FAILURE_TEXTS.signalling);
    }
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.closed) this.connect();
    }, outcome.delay);
  }

  /** Drops the Janus session and every handle; `notify` sends the destroy to the server (leaving on purpose). */
  private teardown(notify: boolean): void {
    // Callbacks of the old session must not act any more (e.g. a publisher cleanup must not restart it).
    this.generation += 1;
    const janus = this.janus;
    this.janus = null;
    const handles = [this.publisher];
    this.forgetIce(this.publisher, 'camera');
    this.publisher = null;
    // The screen publisher does not outlive the session (spec §4). Its capture does when the session was lost rather
    // than left: the share is published again once a fresh start is up (whenReady), unless it has ended meanwhile.
    if (notify) this.stopScreenShare();
    else this.holdScreenShare();
    this.remote?.close();
    this.remote = null;
    this.broken.clear();
    this.opts.model.mediaReconnecting(false);
    const socket = this.socket;
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
    // janus.js leaves its socket open when its session claim failed (a resume on a node that holds nothing): closed
    // here, so the connection that node made for it ends now instead of lingering as a second self for the others.
    if (!notify && socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
    // The socket a failed resume meant to replace is given up as well. It may well be open still: a page that was only
    // slow to hear its pings (a starved phone or machine) found it dead. Left open, the server kept the old connection
    // (feedless, its session gone) for as long as the page lived, a second self in everyone's count (seen: 10 people
    // in a call of 9, 90 s after the fresh start).
    const replaced = this.resumedFrom;
    this.resumedFrom = null;
    if (replaced && replaced !== socket && replaced.readyState <= WebSocket.OPEN) replaced.close(1000);
  }

  /**
   * Camera and microphone, audio on and video off first: the lobby's own tracks when the person came from it
   * (lib/device-handover.ts), else the lobby's choices opened anew (by label, case-insensitively).
   */
  private async capture(): Promise<boolean> {
    if (this.localTracks.audio || this.localTracks.video) return true;
    const handed = deviceHandover.take(this.opts.meetingId);
    const stream = handed ? new MediaStream([handed.audio, handed.video]) : await this.openDevices();
    if (!stream) return false;
    if (this.closed) {
      for (const t of stream.getTracks()) t.stop();
      return false;
    }
    this.localTracks = { audio: stream.getAudioTracks()[0] ?? null, video: stream.getVideoTracks()[0] ?? null };
    if (this.localTracks.audio) this.localTracks.audio.enabled = this.wants.audio;
    if (this.localTracks.video) this.localTracks.video.enabled = this.wants.video;
    // The stored blur choice applies to this new publisher (spec §4 Blur).
    const blur = this.opts.model.getState().blur;
    if (blur.supported && blur.on && this.localTracks.video && !this.blurred) {
      this.blurred = this.startBlur(this.localTracks.video);
    }
    return true;
  }

  /** The lobby's chosen camera and microphone (by label), or the defaults; null after an error the screen shows. */
  private async openDevices(): Promise<MediaStream | null> {
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: CAMERA_SIZE });
    } catch (err) {
      // The lobby's reading (lib/user-media-error.ts), so both screens tell the same refusals to allow access.
      this.opts.model.addError(userMediaFailure(err) === 'denied' ? 'OT_USER_MEDIA_ACCESS_DENIED' : 'OT_HARDWARE_UNAVAILABLE');
      return null;
    }
    try {
      const devices = await navigator.mediaDevices.enumerateDevices();
      const video = matchDevice(devices.filter((d) => d.kind === 'videoinput'), this.opts.preferred.video);
      const audio = matchDevice(devices.filter((d) => d.kind === 'audioinput'), this.opts.preferred.audio);
      const current = { video: stream.getVideoTracks()[0]?.getSettings().deviceId, audio: stream.getAudioTracks()[0]?.getSettings().deviceId };
      if ((video && video.deviceId !== current.video) || (audio && audio.deviceId !== current.audio)) {
        const chosen = await navigator.mediaDevices.getUserMedia({
          audio: audio ? { deviceId: { exact: audio.deviceId } } : true,
          video: { ...(video ? { deviceId: { exact: video.deviceId } } : {}), ...CAMERA_SIZE },
        });
        for (const t of stream.getTracks()) t.stop();
        stream = chosen;
      }
    } catch {
      /* keep the default devices */
    }
    return stream;
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
    const video = this.sentVideo();
    // VP8 simulcast (janus.js turns it on for a track with `simulcast` and takes our encodings): each viewer gets
    // the layer that fits its tile and its downlink, chosen per viewer by Janus (see model/video-layers.ts).
    if (video) tracks.push({ type: 'video', capture: video, recv: false, dontStop: true, simulcast: true, sendEncodings: cameraEncodings(this.opts.videoLayers ?? FALLBACK_VIDEO_LAYERS) });
    this.showOwn();
    let mine: Handle | null = null;
    janus.attach({
      plugin: VIDEOROOM,
      success: (handle) => {
        if (generation !== this.generation) return handle.detach();
        this.publisher = mine = handle;
        handle.send({ message: { request: 'join', ptype: 'publisher', room: this.roomId } });
      },
      error: () => model.addError('OT_HARDWARE_UNAVAILABLE'),
      onmessage: (msg, jsep) => {
        const handle = this.publisher;
        if (!handle) return;
        if (msg.videoroom === 'joined') {
          handle.createOffer({
            tracks,
            customizeSdp: askOpusDtx,
            success: (offer) => {
              this.watchPublisherIce('camera', handle);
              handle.send({ message: { request: 'configure', audio: true, video: true }, jsep: this.e2ee.declare(offer) });
            },
            error: () => model.addError('OT_HARDWARE_UNAVAILABLE'),
          });
        }
        // Janus's answer sets every layer active again (its simulcast line pauses none): a camera that is off goes
        // back to its top layer alone after each one (the first, and those of ICE restarts).
        if (jsep) handle.handleRemoteJsep({ jsep, success: () => void (this.wants.video || stillWhileOff(handle.webrtcStuff?.pc, false)) });
      },
      iceState: (state) => {
        if (mine && this.publisher === mine) this.recoveries.get(mine)?.update(state);
      },
      // E2EE: the senders' transforms, before janus.js creates the offer.
      onlocaltrack: () => this.e2ee.protect(mine?.webrtcStuff?.pc),
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
        // Only the live publisher restarts (not a dead one being detached, nor one of an old session).
        if (generation !== this.generation || this.closed || !mine || this.publisher !== mine) return;
        // The own publisher died while the session lives: restart it after 1 s (spec §4 Publisher).
        const dead = this.publisher;
        // Janus gave up on a publisher that never connected: as when our own restarts run out.
        if (dead && this.recoveries.get(dead)?.connectedOnce === false) this.iceGaveUp(false);
        this.forgetIce(dead, 'camera');
        this.publisher = null;
        // Free the dead handle (the relay counts handles), outside janus.js's own cleanup call.
        setTimeout(() => {
          try {
            dead?.detach();
          } catch {
            /* already gone */
          }
        }, 0);
        // The own camera stream is gone: its audio and video flags are false until it is back (spec §4).
        model.ownAlive(false);
        model.addError('PUBLISHER_RESTARTING');
        this.restartTimer = setTimeout(() => void this.publish(), PUBLISHER_RESTART_MS);
      },
    });
  }

  /** Receives every published feed of the others on the one subscriber connection, and drops the ones that went. */
  private syncSubscriptions(): void {
    if (!this.janus || !this.janusReady || !this.serverReady) return;
    const state = this.opts.model.getState();
    if (!state.capabilities.subscribe) return this.receiving.done();
    this.remote ??= new RemoteFeeds({
      janus: this.janus,
      e2ee: this.e2ee,
      roomId: this.roomId,
      model: this.opts.model,
      onReconnecting: (on) => this.setBroken('subscriber', on),
      onConnected: () => (this.mediaEverConnected = true),
      onAnswered: this.receiving.done,
      onGaveUp: (everConnected) => this.iceGaveUp(everConnected),
      firstLayer: (streamId) => this.videoLayers.firstLayer(streamId),
    });
    const wanted = wantedFeeds(state);
    if (wanted.size === 0) this.receiving.done();
    this.remote.sync(wanted);
  }

  /** The spec's reconnecting / reconnected while any of this page's connections restarts its ICE. */
  private setBroken(which: string, on: boolean): void {
    // A media connection broke: the network may have changed under the signalling socket too.
    if (on && which !== 'signalling' && !this.broken.has(which)) this.signal?.suspect();
    if (on) this.broken.add(which);
    else this.broken.delete(which);
    this.opts.model.mediaReconnecting(this.broken.size > 0);
  }

  /** ICE restarts did not bring a connection back; its owner rebuilds it. What the user is told: iceGaveUpError. */
  private iceGaveUp(everConnected: boolean): void {
    const error = iceGaveUpError(everConnected, this.mediaEverConnected);
    if (error === 'networkDisconnected') this.opts.model.addError('networkDisconnected');
    else if (error === 'connectionFailed') this.opts.model.connectionFailed(CONNECTION_FAILURE_TEXTS.media);
  }

  /** Restarts ICE on a publisher's own connection: a new offer with new ICE credentials, same tracks, same feed. */
  private watchPublisherIce(which: 'camera' | 'screen', handle: Handle): IceRecovery {
    const recovery = new IceRecovery({
      restart: () =>
        handle.createOffer({
          iceRestart: true,
          customizeSdp: askOpusDtx,
          success: (offer) => handle.send({ message: { request: 'configure' }, jsep: this.e2ee.declare(offer) }),
          error: () => {
            /* the restart's own timeout tries again */
          },
        }),
      reconnecting: (on) => this.setBroken(which, on),
      connected: () => (this.mediaEverConnected = true),
      currentState: () => handle.webrtcStuff?.pc?.iceConnectionState ?? 'closed',
      giveUp: (everConnected) => {
        this.setBroken(which, false);
        this.iceGaveUp(everConnected);
        // A publisher that once worked is hung up: its cleanup restarts it (spec §4 Publisher). So is one that never
        // connected while other media of this page did (the network lets media through: a machine too busy to finish
        // ICE in time, say); left alone it stayed dead without a word, the camera never reaching anyone.
        if (everConnected || this.mediaEverConnected) {
          try {
            handle.hangup(true);
          } catch {
            /* already gone */
          }
        }
      },
    });
    this.recoveries.get(handle)?.stop();
    this.recoveries.set(handle, recovery);
    return recovery;
  }

  private forgetIce(handle: Handle | null, which: string): void {
    if (!handle) return;
    this.recoveries.get(handle)?.stop();
    this.recoveries.delete(handle);
    this.setBroken(which, false);
  }
}

/** The Network Information API where the browser has it (Chromium): its `change` follows a change of network. */
const connectionInfo = (): EventTarget | undefined => (navigator as { connection?: EventTarget }).connection;

/**
 * Caps the bit rate of a single-layer video sender. After the offer is made: before it (as janus.js's own `bitrate`
 * option does it) the screen share was seen never to reach its viewers.
 */
async function capSender(pc: RTCPeerConnection | undefined, maxBitrate: number): Promise<void> {
  const sender = pc?.getSenders().find((s) => s.track?.kind === 'video');
  if (!sender) return;
  const params = sender.getParameters();
  if (!params.encodings?.length) return;
  params.encodings[0]!.maxBitrate = maxBitrate;
  await sender.setParameters(params).catch(() => undefined);
}

/**
 * Everything received so far from the media server on these connections (media, RTCP and ICE checks alike: any of
 * it proves the path; null where the browser keeps no transport figures).
 */
async function transportBytesReceived(connections: { pc: RTCPeerConnection }[]): Promise<number | null> {
  const pcs = new Set(connections.map((c) => c.pc));
  const totals = await Promise.all([...pcs].map((pc) => statBytes(pc, 'transport')));
  return totals.reduce<number | null>((sum, t) => (t === null ? sum : (sum ?? 0) + t), null);
}

/**
 * A connection's bytes so far over every stats entry of this type: sent for outbound RTP, else received (null: no
 * such entry, or no connection).
 */
async function statBytes(pc: RTCPeerConnection | null | undefined, type: 'inbound-rtp' | 'outbound-rtp' | 'transport'): Promise<number | null> {
  if (!pc || pc.connectionState === 'closed') return null;
  let total: number | null = null;
  (await pc.getStats()).forEach((r: { type: string; bytesReceived?: number; bytesSent?: number }) => {
    if (r.type === type) total = (total ?? 0) + ((type === 'outbound-rtp' ? r.bytesSent : r.bytesReceived) ?? 0);
  });
  return total;
}

/**
 * A camera turned off keeps its track (turning it on again is instant and asks for no device), and a disabled track
 * sends black frames in every simulcast layer, for every viewer to decode. While it is off only the top layer goes on:
 * the one Chromium sends from any camera (from a small one it sends no other), so a viewer Janus has given a lower
 * layer is never left waiting for one that will not come back. Not a lower frame rate: Chromium 156 kept a camera at
 * 1 frame/s after such a cap was lifted.
 */
async function stillWhileOff(pc: RTCPeerConnection | undefined, on: boolean): Promise<void> {
  const sender = pc?.getSenders().find((s) => s.track?.kind === 'video');
  if (!sender) return;
  const params = sender.getParameters();
  if ((params.encodings?.length ?? 0) < 2) return;
  for (const e of params.encodings) e.active = on || e.rid === 'h';
  await sender.setParameters(params).catch(() => undefined);
}

interface IceConnection {
  recovery: IceRecovery;
  pc: RTCPeerConnection | null;
  /** ICE restarts asked for so far, and whether one is still pending. */
  restarts(): { asked: number; pending: boolean };
}

/** A media connection when the signalling socket was given up (see heldThroughResume). */
interface ConnectionMark {
  recovery: IceRecovery;
  restarts: { asked: number; pending: boolean };
  /** Bytes received on it from the media server so far. */
  bytes: Promise<number | null>;
}

/** A camera or microphone the settings dialog could not open (spec §2 Settings dialog texts). */
export class DeviceError extends Error {
  constructor(readonly kind: 'audio' | 'video') {
    super(kind === 'video' ? SETTINGS_TEXTS.cameraError : SETTINGS_TEXTS.micError);
    this.name = 'DeviceError';
  }
}

/** A promise and the function that resolves it (any number of calls). */
function settleable(): { promise: Promise<void>; done: () => void } {
  let done = () => {};
  const promise = new Promise<void>((resolve) => (done = () => resolve()));
  return { promise, done };
}
