import { SCREEN_HANDLE_TAG } from '@videomote/contract/media';
import type { VideoLayers } from '@videomote/contract/identity';
import type { CallModel } from '../model/call-model.ts';
import { isShareDenied, shareAfterFreshStart } from '../model/screen-share.ts';
import { SHARE_TEXTS } from '../model/texts.ts';
import { FALLBACK_VIDEO_LAYERS, screenEncoding } from '../model/send-layers.ts';
import { capSender, type OwnPublisher, type OwnPublisherOptions } from './own-publisher.ts';

export interface ScreenShareOptions {
  model: CallModel;
  videoLayers?: VideoLayers;
  /** A publisher on the session's live Janus session, not yet attached (null while there is none). */
  publisher(opts: OwnPublisherOptions): OwnPublisher | null;
  /** Whether the session has a Janus session to publish on. */
  connected(): boolean;
  closed(): boolean;
}

/**
 * The own screen share (spec §4 Screen sharing): the captured screen and its publisher, a second VideoRoom handle
 * on the session. The capture outlives a lost session; the publisher does not (see hold and resume).
 */
export class ScreenShareSession {
  private stream: MediaStream | null = null;
  private publisher: OwnPublisher | null = null;
  /** The connection whose session was lost while it shared (see hold). */
  private sharedFrom: string | null = null;

  constructor(private readonly opts: ScreenShareOptions) {}

  /** Whether the own screen share is running (its capture or its publisher exists). */
  get sharing(): boolean {
    return this.publisher?.handle != null || this.stream !== null;
  }

  /** Captured, but not published: its session was lost. */
  get held(): boolean {
    return this.stream !== null && this.publisher?.handle == null;
  }

  get pc(): RTCPeerConnection | undefined {
    return this.publisher?.pc;
  }

  /** For the ICE watch of a resume: the publisher, once attached. */
  get attached(): OwnPublisher | null {
    return this.publisher?.handle ? this.publisher : null;
  }

  /**
   * Starts the own screen share. `beforePublish` runs after the user picked a screen and before it is sent: the
   * takeover asks the server to stop the other share there, so a cancelled picker never ends someone's share.
   * A denied picker is silent; other failures are shown (spec §4).
   */
  async start(beforePublish?: () => Promise<void>): Promise<void> {
    const model = this.opts.model;
    if (this.sharing || !this.opts.connected() || !model.getState().capabilities.publish) return;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    } catch (err) {
      if (!isShareDenied(err)) model.addError('SCREEN_SHARE_FAILED', SHARE_TEXTS.failed);
      return;
    }
    const track = stream.getVideoTracks()[0];
    if (!track || this.opts.closed()) {
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
    this.stream = stream;
    // Keep the resolution and drop frames when the link is short: blurred text is unreadable, a slow one is not.
    track.contentHint = 'text';
    const screen = screenEncoding(this.opts.videoLayers ?? FALLBACK_VIDEO_LAYERS);
    await track.applyConstraints({ frameRate: { max: screen.maxFramerate } }).catch(() => undefined);
    // Media stopped from the browser's own "stop sharing" bar ends the share too.
    track.addEventListener('ended', () => this.stop());
    model.screenShareStarted(stream);
    this.publish(stream);
  }

  /** The screen publisher for the captured `stream`. */
  private publish(stream: MediaStream): void {
    const track = stream.getVideoTracks()[0]!;
    const screen = screenEncoding(this.opts.videoLayers ?? FALLBACK_VIDEO_LAYERS);
    // After a fresh start the same stream has a new publisher: the old one's late callbacks must not act on it.
    const fail = () => {
      if (!publisher?.epoch.live) return;
      this.opts.model.addError('SCREEN_SHARE_FAILED', SHARE_TEXTS.failed);
      this.stop();
    };
    const publisher: OwnPublisher | null = this.opts.publisher({
      kind: 'screen',
      // One full-size layer at a frame rate for text (no simulcast: a share is read, not glanced at).
      // dontStop: a lost session's cleanup must leave the capture running, to publish it again (hold); stop stops it.
      tracks: [{ type: 'video', capture: track, recv: false, dontStop: true }],
      sends: { audio: false, video: true },
      // Tells the server this publisher is the screen share, also when no camera publishes (see the tag).
      opaqueId: SCREEN_HANDLE_TAG,
      read: (msg) => {
        if (msg.error) {
          fail();
          return true;
        }
        // Kicked by a takeover (or the publisher left): the share is over.
        if (msg.videoroom === 'event' && (msg.leaving === 'ok' || msg.unpublished === 'ok' || msg.error_code)) this.stop();
        return false;
      },
      offered: (pc) => void capSender(pc, screen.maxBitrate),
      failed: fail,
      // Not the cleanup of a lost session: its share is published again on the next (see hold).
      cleanedUp: (p) => p.current && this.stop(),
    });
    // Held before it attaches: janus.js may report a failure from within attach, and fail then stops this one.
    this.publisher = publisher;
    publisher?.attach();
  }

  /**
   * The session is lost: its screen publisher goes with it (janus.destroy cleans the handle), the capture stays and
   * the sharer still sees 'Du delar skärm'. Which connection shared is noted, for resume's decision.
   */
  hold(): void {
    if (!this.stream) return;
    this.letGo();
    this.sharedFrom = this.opts.model.getState().connectionId;
  }

  /** After a fresh start: the held share is published again, or ends (shareAfterFreshStart says which). */
  resume(): void {
    const stream = this.stream;
    if (!stream || this.publisher?.handle) return;
    const live = stream.getVideoTracks()[0]?.readyState === 'live';
    const outcome = shareAfterFreshStart(this.opts.model.getState(), { live, sharedFrom: this.sharedFrom });
    this.sharedFrom = null;
    if (outcome === 'publish') this.publish(stream);
    else this.stop();
  }

  /** Ends the own screen share: its publisher is destroyed and isSharingScreen goes false. */
  stop(): void {
    const publisher = this.publisher;
    const stream = this.stream;
    this.letGo();
    this.stream = null;
    for (const t of stream?.getTracks() ?? []) t.stop();
    publisher?.detach();
    this.opts.model.screenShareEnded();
  }

  private letGo(): void {
    this.publisher?.forgetIce();
    this.publisher?.drop();
    this.publisher = null;
  }
}
