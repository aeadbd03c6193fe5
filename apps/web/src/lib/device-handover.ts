/**
 * The lobby's camera and microphone, carried into the call. The person chose them and saw them work in the lobby's
 * device test; stopping them there only for the meeting screen to open the same devices again made the camera's
 * light go out and on, asked browsers that granted the devices for one use a second time, and put a camera start
 * into the join. The lobby hands its live tracks over as the person joins, and the call's media session takes them
 * once. Tracks nobody takes soon are stopped: a camera never stays on behind the person's back.
 */

/** The camera as the call sends it (its top simulcast layer), so that the lobby's preview track can be sent as it is. */
export const CAMERA_SIZE = { width: { ideal: 1280 }, height: { ideal: 720 } } as const;

/** How long handed tracks wait for the call (which takes them once its signalling is up, normally within a second). */
export const UNTAKEN_STOP_MS = 10_000;

type Track = Pick<MediaStreamTrack, 'kind' | 'readyState' | 'stop'>;

export class DeviceHandover<T extends Track = MediaStreamTrack> {
  private joiningMeeting: string | null = null;
  private held: { meetingId: string; tracks: T[]; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(private readonly waitMs = UNTAKEN_STOP_MS) {}

  /** The person pressed 'Anslut till mötet': the lobby's tracks go to this meeting's call when the lobby closes. */
  joining(meetingId: string): void {
    this.joiningMeeting = meetingId;
  }

  /** The lobby's device test closes: its tracks are held for the call the person is joining, or stopped. */
  release(tracks: T[]): void {
    const meetingId = this.joiningMeeting;
    this.joiningMeeting = null;
    if (!meetingId || tracks.length === 0) return stopAll(tracks);
    this.drop();
    const timer = setTimeout(() => this.drop(), this.waitMs);
    this.held = { meetingId, tracks, timer };
  }

  /**
   * The held camera and microphone for this meeting's call, once; null (the call opens its devices itself) when there
   * are none, they are another meeting's, or either of them has ended (a camera unplugged meanwhile).
   */
  take(meetingId: string): { audio: T; video: T } | null {
    const held = this.held;
    if (!held) return null;
    this.held = null;
    clearTimeout(held.timer);
    const live = held.tracks.filter((t) => t.readyState === 'live');
    const audio = live.find((t) => t.kind === 'audio');
    const video = live.find((t) => t.kind === 'video');
    if (held.meetingId !== meetingId || !audio || !video) {
      stopAll(held.tracks);
      return null;
    }
    stopAll(held.tracks.filter((t) => t !== audio && t !== video));
    return { audio, video };
  }

  private drop(): void {
    if (!this.held) return;
    clearTimeout(this.held.timer);
    stopAll(this.held.tracks);
    this.held = null;
  }
}

function stopAll(tracks: Track[]): void {
  for (const t of tracks) t.stop();
}

/** The page's one handover, from the lobby to the call. */
export const deviceHandover = new DeviceHandover();
