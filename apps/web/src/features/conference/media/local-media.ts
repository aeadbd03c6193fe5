import type { CallModel } from '../model/call-model.ts';
import { matchDevice } from '../model/layout.ts';
import { SETTINGS_TEXTS } from '../model/texts.ts';
import { userMediaFailure } from '../../../lib/user-media-error.ts';
import { CAMERA_SIZE, deviceHandover } from '../../../lib/device-handover.ts';
import { blurSupported, blurTrack, readBlurChoice, storeBlurChoice, type BlurredTrack } from './background-blur/blur-track.ts';

/** When a session whose stored choice is no blur asks whether blur is possible (see offerBlur). */
const BLUR_PROBE_AFTER_MS = 3_000;

export interface LocalMediaOptions {
  model: CallModel;
  meetingId: string;
  /** The lobby's choices, by label. */
  preferred: { video: string | null; audio: string | null };
  /** Puts a track on the camera publisher's sender in place of what it sends (nothing while it has no connection). */
  replaceSent(kind: 'audio' | 'video', track: MediaStreamTrack | null): Promise<void>;
  /** The session was left: a device opened meanwhile is stopped at once. */
  closed(): boolean;
}

/** The own camera and microphone: their tracks, the devices they come from, and the blurred copy of the camera. */
export class LocalMedia {
  tracks: { audio: MediaStreamTrack | null; video: MediaStreamTrack | null } = { audio: null, video: null };
  /** Whether the person wants each sent (audio on and video off at first). */
  readonly wants = { audio: true, video: false };
  /** The blurred copy of the camera that is sent instead of the camera itself while blur is on. */
  private blurred: BlurredTrack | null = null;

  constructor(private readonly opts: LocalMediaOptions) {}

  /**
   * Whether blur is possible, told to the model. The probe makes a WebGL context: 200 ms of main thread in the media
   * bench, which every step of joining would wait behind. Only a stored 'blur on' needs it now (the first publisher
   * sends the blurred camera); otherwise the settings' toggle can wait until the call has connected and the page is
   * idle.
   */
  offerBlur(): void {
    if (readBlurChoice()) this.probeBlur();
    else setTimeout(() => whenIdle(() => this.probeBlur()), BLUR_PROBE_AFTER_MS);
  }

  private probeBlur(): void {
    if (this.opts.closed()) return;
    const supported = blurSupported();
    this.opts.model.setBlur({ supported, on: supported && readBlurChoice() });
  }

  /** The video track that is sent and shown: the blurred copy while blur is on, else the camera. */
  sentVideo(): MediaStreamTrack | null {
    return this.blurred?.track ?? this.tracks.video;
  }

  /** The own picture and sound, as the own tile shows them. */
  show(): void {
    this.opts.model.ownMedia(new MediaStream([this.tracks.audio, this.sentVideo()].filter((t): t is MediaStreamTrack => t !== null)));
  }

  /** Turns the microphone or camera (and its blurred copy) on or off, keeping the track. */
  enable(kind: 'audio' | 'video', on: boolean): void {
    const track = this.tracks[kind];
    if (!track) return;
    this.wants[kind] = on;
    track.enabled = on;
    if (kind === 'video' && this.blurred) this.blurred.track.enabled = on;
  }

  /** A meeting admin switched the own microphone off (spec §4 Forced mute). */
  muteForced(): void {
    if (this.tracks.audio) this.tracks.audio.enabled = false;
    this.wants.audio = false;
  }

  /** 'Suddig bakgrund' / 'Normal bakgrund': stored, and applied at once to the live camera (spec §4 Blur). */
  async setBlur(on: boolean): Promise<void> {
    const model = this.opts.model;
    if (!model.getState().blur.supported) return;
    storeBlurChoice(on);
    model.setBlur({ supported: true, on });
    const camera = this.tracks.video;
    if (!camera) return; // the stored choice is applied when the next publisher is created
    await this.sendVideo(on ? this.startBlur(camera) : null);
    this.show();
  }

  /** The blur pipeline's figures (model load time, per-frame times), for the browser tests. */
  blurReport(): ReturnType<BlurredTrack['report']> | null {
    return this.blurred?.report() ?? null;
  }

  /**
   * Sends `blurred` (the camera itself when null) in place of what was sent, then stops the blurred copy it replaces:
   * blur turned on or off, a blur that failed, another camera.
   */
  private async sendVideo(blurred: BlurredTrack | null): Promise<void> {
    const old = this.blurred;
    this.blurred = blurred;
    await this.opts.replaceSent('video', this.sentVideo());
    if (old !== blurred) old?.stop();
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
    this.opts.model.setBlur({ supported: true, on: false });
    this.opts.model.addError('BLUR_FAILED');
    await this.sendVideo(null);
    this.show();
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
    if (this.opts.closed()) {
      track.stop();
      return;
    }
    const old = this.tracks[kind];
    track.enabled = old ? old.enabled : this.wants[kind];
    this.tracks[kind] = track;
    if (kind === 'video') await this.sendVideo(this.blurred ? this.startBlur(track) : null);
    else await this.opts.replaceSent(kind, track);
    old?.stop();
    this.show();
  }

  /** The camera and microphone in use, by deviceId (the settings dialog preselects them). */
  currentDevices(): { audio: string | null; video: string | null } {
    return {
      audio: this.tracks.audio?.getSettings().deviceId ?? null,
      video: this.tracks.video?.getSettings().deviceId ?? null,
    };
  }

  /**
   * Camera and microphone, audio on and video off first: the lobby's own tracks when the person came from it
   * (lib/device-handover.ts), else the lobby's choices opened anew (by label, case-insensitively). Once: a publisher
   * made again after a reconnect sends the same tracks.
   */
  async capture(): Promise<boolean> {
    if (this.tracks.audio || this.tracks.video) return true;
    const handed = deviceHandover.take(this.opts.meetingId);
    const stream = handed ? new MediaStream([handed.audio, handed.video]) : await this.openDevices();
    if (!stream) return false;
    if (this.opts.closed()) {
      for (const t of stream.getTracks()) t.stop();
      return false;
    }
    this.tracks = { audio: stream.getAudioTracks()[0] ?? null, video: stream.getVideoTracks()[0] ?? null };
    if (this.tracks.audio) this.tracks.audio.enabled = this.wants.audio;
    if (this.tracks.video) this.tracks.video.enabled = this.wants.video;
    // The stored blur choice applies to this new publisher (spec §4 Blur).
    const blur = this.opts.model.getState().blur;
    if (blur.supported && blur.on && this.tracks.video && !this.blurred) {
      this.blurred = this.startBlur(this.tracks.video);
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

  /** Leaving: the camera, its blurred copy and the microphone are stopped. */
  stop(): void {
    this.blurred?.stop();
    this.blurred = null;
    this.tracks.audio?.stop();
    this.tracks.video?.stop();
    this.tracks = { audio: null, video: null };
  }
}

function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 0);
}

/** A camera or microphone the settings dialog could not open (spec §2 Settings dialog texts). */
export class DeviceError extends Error {
  constructor(readonly kind: 'audio' | 'video') {
    super(kind === 'video' ? SETTINGS_TEXTS.cameraError : SETTINGS_TEXTS.micError);
    this.name = 'DeviceError';
  }
}
