import type { JanusJS } from 'janus-gateway';
import type { VideoLayers } from '@videomote/contract/identity';
import type { CallModel } from '../model/call-model.ts';
import { PUBLISHER_RESTART_MS } from '../model/layout.ts';
import { cameraEncodings, FALLBACK_VIDEO_LAYERS } from '../model/send-layers.ts';
import type { ConnectionHealth } from './connection-health.ts';
import type { LocalMedia } from './local-media.ts';
import type { SessionEpoch } from './media-socket.ts';
import { stillWhileOff, type OwnPublisher, type OwnPublisherOptions } from './own-publisher.ts';

export interface CameraPublisherOptions {
  model: CallModel;
  videoLayers?: VideoLayers;
  local: LocalMedia;
  /** A publisher on the session's live Janus session, not yet attached (null while there is none). */
  publisher(opts: OwnPublisherOptions): OwnPublisher | null;
  /** The session's current epoch. */
  epoch(): SessionEpoch;
  closed(): boolean;
  /** The own state changed: told to the model and the server. */
  announce(): void;
  health: ConnectionHealth;
}

/**
 * The own camera and microphone on the Janus session (spec §4 Publisher): published once the call is up, made again
 * 1 s after it dies while the session lives, with the same tracks.
 */
export class CameraPublisher {
  /** Set once its handle is attached. */
  private publisher: OwnPublisher | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly opts: CameraPublisherOptions) {}

  get pc(): RTCPeerConnection | undefined {
    return this.publisher?.pc;
  }

  /** For the ICE watch of a resume. */
  get attached(): OwnPublisher | null {
    return this.publisher;
  }

  /** A camera that is off sends its top layer alone (see stillWhileOff). */
  videoOn(on: boolean): void {
    void stillWhileOff(this.pc, on);
  }

  async publish(): Promise<void> {
    const { model, local } = this.opts;
    if (this.publisher) return;
    const epoch = this.opts.epoch();
    if (!epoch.live) return;
    if (!(await local.capture()) || this.opts.closed() || !epoch.live) return;
    const { audio } = local.tracks;
    const video = local.sentVideo();
    const tracks: JanusJS.TrackOption[] = [];
    // dontStop: the same tracks are published again after a reconnect, without asking for the devices again.
    if (audio) tracks.push({ type: 'audio', capture: audio, recv: false, dontStop: true });
    // VP8 simulcast (janus.js turns it on for a track with `simulcast` and takes our encodings): each viewer gets
    // the layer that fits its tile and its downlink, chosen per viewer by Janus (see model/video-layers.ts).
    if (video) tracks.push({ type: 'video', capture: video, recv: false, dontStop: true, simulcast: true, sendEncodings: cameraEncodings(this.opts.videoLayers ?? FALLBACK_VIDEO_LAYERS) });
    local.show();
    this.opts
      .publisher({
        kind: 'camera',
        tracks,
        sends: { audio: true, video: true },
        attached: (p) => (this.publisher = p),
        failed: () => model.addError('OT_HARDWARE_UNAVAILABLE'),
        // Janus's answer sets every layer active again (its simulcast line pauses none): a camera that is off goes
        // back to its top layer alone after each one (the first, and those of ICE restarts).
        answered: (pc) => void (local.wants.video || stillWhileOff(pc, false)),
        // The stream-alive flag follows 1 s after the own stream is up (spec §9).
        up: () =>
          setTimeout(() => {
            if (!epoch.live) return;
            model.ownAlive(true);
            model.removeError('PUBLISHER_RESTARTING');
            this.opts.announce();
          }, 1_000),
        cleanedUp: (dead) => this.died(dead),
      })
      ?.attach();
  }

  /** The own publisher died while the session lives: it is made again after 1 s (spec §4 Publisher). */
  private died(dead: OwnPublisher): void {
    // Only the live publisher restarts (not a dead one being detached, nor one of an old session).
    if (!dead.current || this.opts.closed() || this.publisher !== dead) return;
    // Janus gave up on a publisher that never connected: as when our own restarts run out.
    if (dead.recovery?.connectedOnce === false) this.opts.health.iceGaveUp(false);
    this.letGo();
    // Free the dead handle (the relay counts handles), outside janus.js's own cleanup call.
    setTimeout(() => dead.detach(), 0);
    // The own camera stream is gone: its audio and video flags are false until it is back (spec §4).
    this.opts.model.ownAlive(false);
    this.opts.model.addError('PUBLISHER_RESTARTING');
    this.restartTimer = setTimeout(() => void this.publish(), PUBLISHER_RESTART_MS);
  }

  /**
   * The session goes: the publisher with it. janus.js skips handle cleanup when its socket is already gone, so the
   * peer connection is closed here.
   */
  end(): void {
    const publisher = this.publisher;
    this.letGo();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    publisher?.hangup(false);
  }

  private letGo(): void {
    this.publisher?.forgetIce();
    this.publisher?.drop();
    this.publisher = null;
  }
}
