import type { JanusJS } from 'janus-gateway';
import { IceRecovery } from '../model/ice-recovery.ts';
import { withOpusDtx } from '../model/opus-dtx.ts';
import type { MediaE2ee } from './e2ee/media-e2ee.ts';
import type { SessionEpoch } from './media-socket.ts';
import type { ConnectionHealth } from './connection-health.ts';

type Handle = JanusJS.PluginHandle;
export type PublisherKind = 'camera' | 'screen';

/** What the session lends each publisher: its live Janus session, and where ICE trouble is reported. */
export interface PublisherContext {
  janus: JanusJS.Janus;
  roomId: number;
  epoch: SessionEpoch;
  e2ee: MediaE2ee;
  health: ConnectionHealth;
}

export interface OwnPublisherOptions {
  kind: PublisherKind;
  tracks: JanusJS.TrackOption[];
  /** Janus's configure: which of audio and video this publisher sends. */
  sends: { audio: boolean; video: boolean };
  /** Tells the server what the handle is (the screen share's tag). */
  opaqueId?: string;
  /** The handle is attached in a live epoch: the session takes it as its publisher. */
  attached?(publisher: OwnPublisher): void;
  /** A Janus message the publisher reads itself before the common ones; true: nothing more is done with it. */
  read?(msg: JanusJS.Message): boolean;
  /** The offer is made (the connection exists, its senders have their tracks). */
  offered?(pc: RTCPeerConnection | undefined): void;
  /** Janus's answer (the first, or an ICE restart's) is applied. */
  answered?(pc: RTCPeerConnection | undefined): void;
  /** The handle or its offer failed. */
  failed(): void;
  /** The connection is up. */
  up?(): void;
  /** janus.js cleaned the handle up (it died, was hung up, or its session went). */
  cleanedUp(publisher: OwnPublisher): void;
}

/**
 * One own published feed on the Janus session: the camera with its microphone, or the screen share. Both are made
 * the same way: attach a VideoRoom handle, join as a publisher, offer (encrypted senders, Opus DTX asked for),
 * configure, apply the answer, and restart ICE on the same connection when it breaks.
 */
export class OwnPublisher {
  /** The handle, once attached in a live epoch. */
  handle: Handle | null = null;
  /** Restarts ICE on this connection (made with the first offer). */
  recovery: IceRecovery | null = null;
  /** Its owner let it go (it died, was held or stopped): janus.js's late callbacks must not act for it. */
  private dropped = false;

  constructor(
    private readonly context: PublisherContext,
    private readonly opts: OwnPublisherOptions,
  ) {}

  get epoch(): SessionEpoch {
    return this.context.epoch;
  }

  /** Whether Janus's answers still concern the session: the epoch is live and its owner still has this publisher. */
  get current(): boolean {
    return this.epoch.live && !this.dropped;
  }

  drop(): void {
    this.dropped = true;
  }

  get pc(): RTCPeerConnection | undefined {
    return this.handle?.webrtcStuff?.pc;
  }

  attach(): this {
    const { janus, roomId, e2ee } = this.context;
    const opts = this.opts;
    janus.attach({
      plugin: 'janus.plugin.videoroom',
      ...(opts.opaqueId ? { opaqueId: opts.opaqueId } : {}),
      success: (handle) => {
        if (!this.current) return handle.detach();
        this.handle = handle;
        opts.attached?.(this);
        handle.send({ message: { request: 'join', ptype: 'publisher', room: roomId } });
      },
      error: () => opts.failed(),
      onmessage: (msg, jsep) => {
        const handle = this.handle;
        if (!handle || !this.current) return;
        if (opts.read?.(msg)) return;
        if (msg.videoroom === 'joined') {
          handle.createOffer({
            tracks: opts.tracks,
            customizeSdp: askOpusDtx,
            success: (offer) => {
              opts.offered?.(handle.webrtcStuff?.pc);
              this.watchIce(handle);
              handle.send({ message: { request: 'configure', ...opts.sends }, jsep: e2ee.declare(offer) });
            },
            error: () => opts.failed(),
          });
        }
        if (jsep) handle.handleRemoteJsep({ jsep, success: () => opts.answered?.(handle.webrtcStuff?.pc) });
      },
      iceState: (state) => {
        if (this.handle && this.current) this.recovery?.update(state);
      },
      // E2EE: the senders' transforms, before janus.js creates the offer.
      onlocaltrack: () => e2ee.protect(this.pc),
      webrtcState: (up) => {
        if (up) opts.up?.();
      },
      oncleanup: () => opts.cleanedUp(this),
    });
    return this;
  }

  /** Stops restarting ICE on this connection, and it no longer counts as reconnecting. */
  forgetIce(): void {
    if (!this.handle) return;
    this.recovery?.stop();
    this.recovery = null;
    this.context.health.setBroken(this.opts.kind, false);
  }

  /** Closes the peer connection; `sendHangup` tells Janus too. */
  hangup(sendHangup: boolean): void {
    try {
      this.handle?.hangup(sendHangup);
    } catch {
      /* already closed */
    }
  }

  /** Frees the handle on the server (the relay counts handles). */
  detach(): void {
    try {
      this.handle?.detach();
    } catch {
      /* already gone */
    }
  }

  /** Restarts ICE on the own connection: a new offer with new ICE credentials, same tracks, same feed. */
  private watchIce(handle: Handle): void {
    const { e2ee, health } = this.context;
    const which = this.opts.kind;
    this.recovery?.stop();
    this.recovery = new IceRecovery({
      restart: () =>
        handle.createOffer({
          iceRestart: true,
          customizeSdp: askOpusDtx,
          success: (offer) => handle.send({ message: { request: 'configure' }, jsep: e2ee.declare(offer) }),
          error: () => {
            /* the restart's own timeout tries again */
          },
        }),
      reconnecting: (on) => health.setBroken(which, on),
      connected: () => (health.mediaEverConnected = true),
      currentState: () => handle.webrtcStuff?.pc?.iceConnectionState ?? 'closed',
      giveUp: (everConnected) => {
        health.setBroken(which, false);
        health.iceGaveUp(everConnected);
        // A publisher that once worked is hung up: its cleanup restarts it (spec §4 Publisher). So is one that never
        // connected while other media of this page did (the network lets media through: a machine too busy to finish
        // ICE in time, say); left alone it stayed dead without a word, the camera never reaching anyone.
        if (everConnected || health.mediaEverConnected) {
          try {
            handle.hangup(true);
          } catch {
            /* already gone */
          }
        }
      },
    });
  }
}

/** Every offer of a publisher asks for Opus DTX (model/opus-dtx.ts): Janus answers in kind only when it does. */
function askOpusDtx(jsep: { sdp?: string }): void {
  if (jsep.sdp) jsep.sdp = withOpusDtx(jsep.sdp);
}

/** Swaps what a publisher sends on one media line, without renegotiating the call. */
export async function replaceSent(pc: RTCPeerConnection | undefined, kind: 'audio' | 'video', track: MediaStreamTrack | null): Promise<void> {
  const transceiver = pc?.getTransceivers().find((t) => t.receiver.track?.kind === kind && t.direction !== 'inactive');
  if (transceiver) await transceiver.sender.replaceTrack(track);
}

/**
 * Caps the bit rate of a single-layer video sender. After the offer is made: before it (as janus.js's own `bitrate`
 * option does it) the screen share was seen never to reach its viewers.
 */
export async function capSender(pc: RTCPeerConnection | undefined, maxBitrate: number): Promise<void> {
  const sender = pc?.getSenders().find((s) => s.track?.kind === 'video');
  if (!sender) return;
  const params = sender.getParameters();
  if (!params.encodings?.length) return;
  params.encodings[0]!.maxBitrate = maxBitrate;
  await sender.setParameters(params).catch(() => undefined);
}

/**
 * A camera turned off keeps its track (turning it on again is instant and asks for no device), and a disabled track
 * sends black frames in every simulcast layer, for every viewer to decode. While it is off only the top layer goes on:
 * the one Chromium sends from any camera (from a small one it sends no other), so a viewer Janus has given a lower
 * layer is never left waiting for one that will not come back. Not a lower frame rate: Chromium 156 kept a camera at
 * 1 frame/s after such a cap was lifted.
 */
export async function stillWhileOff(pc: RTCPeerConnection | undefined, on: boolean): Promise<void> {
  const sender = pc?.getSenders().find((s) => s.track?.kind === 'video');
  if (!sender) return;
  const params = sender.getParameters();
  if ((params.encodings?.length ?? 0) < 2) return;
  for (const e of params.encodings) e.active = layerActive(e.rid, on);
  await sender.setParameters(params).catch(() => undefined);
}

/** Whether a simulcast layer is sent: every layer while the camera is on, only the top one ('h') while it is off. */
export function layerActive(rid: string | undefined, cameraOn: boolean): boolean {
  return cameraOn || rid === 'h';
}
