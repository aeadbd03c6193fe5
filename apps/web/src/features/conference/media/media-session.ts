// Long on purpose: the connection's state machine (connect, janus.js's answers, the server's messages, lost, teardown)
// reads as one: every step sets the fields the others test, under one epoch. What stands alone is in its own file:
// janus-loader, media-socket, local-media, own-publisher, camera-publisher, screen-share-session, socket-resume,
// connection-health, remote-feeds.
import type { JanusJS } from 'janus-gateway';
import { MEDIA_SOCKETS_FULL_CLOSE_CODE, type MediaKey, type MediaServerMessage } from '@videomote/contract/media';
import type { VideoLayers } from '@videomote/contract/identity';
import type { CallModel, AnnouncedConnection } from '../model/call-model.ts';
import { wantedFeeds } from '../model/subscription-plan.ts';
import { afterLost, canResume, KICKED_CLOSE_CODE, NETWORK_DOWN_AFTER_MS } from '../model/signalling-recovery.ts';
import { connectedOutcome } from '../model/signalling-resume.ts';
import { CONNECTION_FAILURE_TEXTS } from '../model/texts.ts';
import { applyIceServers } from './ice-servers.ts';
import { loadedJanus, loadJanus, preloadJanus, type JanusClass } from './janus-loader.ts';
import { mediaSocketUrl, readServerMessage, SessionEpoch, tapNextSocket } from './media-socket.ts';
import { LocalMedia } from './local-media.ts';
import { OwnPublisher, replaceSent, type OwnPublisherOptions } from './own-publisher.ts';
import { CameraPublisher } from './camera-publisher.ts';
import { ConnectionHealth } from './connection-health.ts';
import { ScreenShareSession } from './screen-share-session.ts';
import { SocketResume, type IceConnection } from './socket-resume.ts';
import { RemoteFeeds } from './remote-feeds.ts';
import { StatsPoller, type PolledConnection } from './stats-poller.ts';
import { VideoLayerControl } from './video-layer-control.ts';
import { prepareMediaE2ee, takeMediaE2ee } from './e2ee/media-e2ee.ts';

/**
 * The only web code that talks to Janus (janus.js through our `/media/{meetingId}` relay). It turns the media
 * session into CallModel events; React never sees Janus. This front holds the connection's life (connect, lost,
 * teardown), the server's messages and what is received; the own camera and microphone (local-media.ts), the own
 * publishers (own-publisher.ts), the screen share (screen-share-session.ts) and the socket's resume
 * (socket-resume.ts) are its parts.
 */

/**
 * Starts loading and initialising janus.js and the end-to-end encryption's worker ahead of the session (the lobby's
 * warm-up and the meeting route call it), so they are ready when gettoken answers instead of being made only then.
 * A failure to load janus.js is left to `start`.
 */
export function prepareMedia(): void {
  preloadJanus();
  prepareMediaE2ee();
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
  /** Everything received, on one subscriber connection (created with the Janus session). */
  private remote: RemoteFeeds | null = null;
  private roomId = 0;
  private serverReady = false;
  private janusReady = false;
  private closed = false;
  private kicked = false;
  private everConnected = false;
  private attempts = 0;
  /** The current attempt at the connection: callbacks of an older one act no more (see SessionEpoch). */
  private epoch = new SessionEpoch(0);
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * The key of this page's current `/media` connection: a new socket with it resumes that connection on the server.
   * Renewed at every fresh start (see connectedOutcome): the old key could get back a connection that is not ours.
   */
  private clientKey = crypto.randomUUID();
  private url = '';
  private lastCloseCode = 0;
  /** Receiving only until the meeting screen shows (see `showing`). */
  private publishHeld: boolean;
  /** Called when the session ends for good (kicked by a moderator); set by the meeting screen that shows it. */
  onEnded: ((reason: 'kicked') => void) | null = null;
  private networkTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly local: LocalMedia;
  /** The own camera and microphone's publisher. */
  private readonly camera: CameraPublisher;
  /** The second publisher: the own screen share (spec §4 Screen sharing). */
  private readonly screen: ScreenShareSession;
  private readonly resume: SocketResume;
  private readonly health: ConnectionHealth;
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
    this.epoch.end(); // none is live before the first connect
    const closed = () => this.closed;
    const publisher = (o: OwnPublisherOptions) => this.publisher(o);
    this.health = new ConnectionHealth(opts.model, () => this.resume.suspect());
    this.local = new LocalMedia({ ...opts, replaceSent: (kind, track) => replaceSent(this.camera.pc, kind, track), closed });
    this.camera = new CameraPublisher({ ...opts, local: this.local, publisher, epoch: () => this.epoch, closed, announce: () => this.announceState(), health: this.health });
    this.screen = new ScreenShareSession({ ...opts, publisher, connected: () => this.janus !== null, closed });
    this.resume = new SocketResume({
      live: () => (this.janus ? { janus: this.janus, epoch: this.epoch, url: this.url } : null),
      socket: () => this.socket,
      tap: (url, epoch) => this.tap(url, epoch),
      setBroken: (on) => this.health.setBroken('signalling', on),
      lost: () => this.onLost(),
      canResume: () => this.canResume(),
      closed,
      ping: () => this.sendOwn({ videomote: 'ping' }),
      iceConnections: () => this.iceConnections(),
      peerConnections: () => this.peerConnections(),
      remote: () => this.remote,
      publisherPc: () => this.camera.pc,
    });
    this.stats = new StatsPoller(opts.model, () => this.peerConnections());
    this.videoLayers = new VideoLayerControl(opts.model, () => this.remote);
    // The queue's growth is read from the decryption worker, where the voices' frames arrive, at each look.
    this.stats.onSubscriberReports = (reports) => void this.e2ee.queueGrowth().then((growth) => this.closed || this.videoLayers.update(reports, growth));
    if (opts.mediaKey) this.e2ee.setKey(opts.mediaKey.epoch, opts.mediaKey.key);
  }

  /** How many times the signalling socket was replaced with the connection kept (the browser tests read it). */
  get resumes(): number {
    return this.resume.count;
  }

  /** The meeting screen shows this session: from now on the own camera and microphone are captured and sent. */
  showing(): void {
    if (!this.publishHeld) return;
    this.publishHeld = false;
    if (this.serverReady && this.janusReady && !this.closed && this.opts.model.getState().capabilities.publish) void this.camera.publish();
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
    this.Janus = loadedJanus();
    if (!this.Janus) {
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
    this.local.offerBlur();
  }

  /** Leaving the route: hang up everything and stop the camera and microphone. */
  close(): void {
    this.closed = true;
    this.receiving.done();
    window.removeEventListener('pagehide', this.onPageHide);
    for (const t of [this.reconnectTimer, this.networkTimer]) if (t) clearTimeout(t);
    this.resume.stop();
    this.stats.stop();
    this.teardown(true);
    this.local.stop();
    this.e2ee.close();
    this.opts.model.disconnected();
  }

  /**
   * Peer connections, for the stats poller and the browser tests' hook: the publishers', then one entry per received
   * stream — all received streams share the one subscriber connection, each entry names the `mid`s that are its.
   */
  peerConnections(): PolledConnection[] {
    const out: PolledConnection[] = [];
    const pub = this.camera.pc;
    if (pub) out.push({ role: 'publisher', streamId: 'own-camera', pc: pub });
    const screen = this.screen.pc;
    if (screen) out.push({ role: 'publisher', streamId: 'own-screen', pc: screen });
    for (const s of this.remote?.streams() ?? []) out.push({ role: 'subscriber', ...s });
    return out;
  }

  /** The subscriber connection (null until something is received), for the browser tests' hook. */
  subscriberConnection(): RTCPeerConnection | null {
    return this.remote?.pc ?? null;
  }

  setAudio(on: boolean): void {
    if (this.opts.model.getState().connectionStatus !== 'connected' || !this.local.tracks.audio) return;
    this.local.enable('audio', on);
    this.announceState();
  }

  setVideo(on: boolean): void {
    if (this.opts.model.getState().connectionStatus !== 'connected' || !this.local.tracks.video) return;
    this.local.enable('video', on);
    this.camera.videoOn(on);
    this.announceState();
  }

  setBlur = (on: boolean): Promise<void> => this.local.setBlur(on);
  blurReport = () => this.local.blurReport();
  switchDevice = (kind: 'audio' | 'video', deviceId: string): Promise<void> => this.local.switchDevice(kind, deviceId);
  currentDevices = () => this.local.currentDevices();
  startScreenShare = (beforePublish?: () => Promise<void>): Promise<void> => this.screen.start(beforePublish);
  stopScreenShare = (): void => this.screen.stop();
  /** Whether the own screen share is running (its publisher exists). */
  get sharing(): boolean {
    return this.screen.sharing;
  }

  /** A meeting admin switched the own microphone off (spec §4 Forced mute). */
  private onMuteForced(): void {
    this.local.muteForced();
    this.announceState();
    this.opts.model.muteForced();
  }

  private announceState(): void {
    const hasAudio = Boolean(this.local.tracks.audio?.enabled);
    const hasVideo = Boolean(this.local.tracks.video?.enabled);
    this.opts.model.ownState(hasAudio, hasVideo);
    this.sendOwn({ videomote: 'state', hasAudio, hasVideo });
  }

  private sendOwn(message: Record<string, unknown>): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private connect(): void {
    const Janus = this.Janus!;
    this.epoch.end();
    const epoch = (this.epoch = new SessionEpoch(this.epoch.attempt + 1));
    this.serverReady = this.janusReady = false;
    const { mediaBaseUrl, meetingId, token } = this.opts;
    const url = mediaSocketUrl({ mediaBaseUrl, meetingId, token, clientKey: this.clientKey, attempt: epoch.attempt, e2ee: this.e2ee.supported });
    this.url = url;
    this.tap(url, epoch);
    this.janus = new Janus({
      server: url,
      iceServers: this.opts.iceServers,
      destroyOnUnload: true,
      success: () => {
        if (!epoch.live) return;
        this.janusReady = true;
        this.whenReady();
      },
      error: () => {
        if (!epoch.live) return;
        // The resume under way decides (a replaced socket's close never reaches here: retireSocket).
        if (this.resume.active) return;
        if (this.canResume()) this.resume.resume();
        else this.onLost();
      },
    });
  }

  /** Reads our own messages on the socket janus.js opens for `url` next (the first one, or a resume's). */
  private tap(url: string, epoch: SessionEpoch): void {
    tapNextSocket(url, (ws) => {
      this.socket = ws;
      this.resume.socketOpened();
      ws.addEventListener('message', (event) => {
        if (!epoch.live || ws !== this.socket) return;
        this.resume.heard();
        const msg = readServerMessage(event.data);
        if (msg) this.onServerMessage(msg);
      });
      ws.addEventListener('close', (event) => {
        if (ws !== this.socket) return;
        this.lastCloseCode = event.code;
        if (event.code === KICKED_CLOSE_CODE) this.kicked = true;
        // Refused by a cap on media sockets: said until a socket is admitted again (CallModel.connected). janus.js
        // reports nothing of a socket closed before its session was made, so the retry with backoff starts here.
        if (event.code === MEDIA_SOCKETS_FULL_CLOSE_CODE) {
          this.opts.model.addError('MEDIA_SOCKETS_FULL');
          if (epoch.live && !this.janusReady) this.onLost();
        }
      });
    });
  }

  /** Whether a broken socket can be replaced while everything else stays (see canResume in the model). */
  private canResume(): boolean {
    return canResume({ everConnected: this.everConnected, kicked: this.kicked, closed: this.closed, hasSession: this.janus !== null, lastCloseCode: this.lastCloseCode });
  }

  private onServerMessage(msg: MediaServerMessage): void {
    const model = this.opts.model;
    switch (msg.videomote) {
      case 'connected':
        switch (connectedOutcome(msg, { resuming: this.resume.active, connectionId: model.getState().connectionId })) {
          case 'resumed':
            // The same connection back on a new socket: same tiles, same peer connections.
            model.resumed(msg.connections as AnnouncedConnection[]);
            this.syncSubscriptions();
            return;
          case 'startAfresh':
            // E.g. the resume reached another app node (ours was killed): it made a connection of its own, which
            // onLost closes; the fresh start then comes with a new key.
            this.resume.abandon();
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
        this.screen.stop();
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
    if (this.opts.model.getState().capabilities.publish && !this.publishHeld) void this.camera.publish();
    this.screen.resume();
    this.syncSubscriptions();
    this.stats.start();
    this.resume.watch();
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
        if (this.screen.held) this.screen.stop();
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
    this.epoch.end();
    const janus = this.janus;
    this.janus = null;
    this.camera.end();
    // The screen publisher does not outlive the session (spec §4). Its capture does when the session was lost rather
    // than left: the share is published again once a fresh start is up (whenReady), unless it has ended meanwhile.
    if (notify) this.screen.stop();
    else this.screen.hold();
    this.remote?.close();
    this.remote = null;
    this.health.clear();
    const socket = this.socket;
    this.socket = null;
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
    const replaced = this.resume.takeReplaced();
    if (replaced && replaced !== socket && replaced.readyState <= WebSocket.OPEN) replaced.close(1000);
  }

  /** A publisher on the live Janus session, not yet attached (null while there is none). */
  private publisher(opts: OwnPublisherOptions): OwnPublisher | null {
    if (!this.janus) return null;
    const { janus, roomId, epoch, e2ee, health } = this;
    return new OwnPublisher({ janus, roomId, epoch, e2ee, health }, opts);
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
      onReconnecting: (on) => this.health.setBroken('subscriber', on),
      onConnected: () => (this.health.mediaEverConnected = true),
      onAnswered: this.receiving.done,
      onGaveUp: (everConnected) => this.health.iceGaveUp(everConnected),
      firstLayer: (streamId) => this.videoLayers.firstLayer(streamId),
    });
    const wanted = wantedFeeds(state);
    if (wanted.size === 0) this.receiving.done();
    this.remote.sync(wanted);
  }

  /** Every media connection with its ICE recovery: the own publishers and the subscriber connection. */
  private iceConnections(): IceConnection[] {
    const all: IceConnection[] = [];
    for (const p of [this.camera.attached, this.screen.attached]) {
      const recovery = p?.recovery;
      if (recovery) all.push({ recovery, pc: p.pc ?? null, restarts: () => recovery.restartRequests });
    }
    const remote = this.remote;
    // The subscriber's restarts are requests to Janus: one that never got out on the dead socket was never made.
    if (remote?.iceRecovery) all.push({ recovery: remote.iceRecovery, pc: remote.pc, restarts: () => remote.restartRequests });
    return all;
  }
}

/** A promise and the function that resolves it (any number of calls). */
function settleable(): { promise: Promise<void>; done: () => void } {
  let done = () => {};
  const promise = new Promise<void>((resolve) => (done = () => resolve()));
  return { promise, done };
}
