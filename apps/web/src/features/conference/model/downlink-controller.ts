/**
 * What the downlink carries, read from the subscriber connection's 1 s stats: how many rungs the layer choice
 * (video-layers.ts `allocate`) takes off everyone's ideal — stepping down fast on loss, back up after a stable period,
 * probing towards a remembered link limit — and the watch that asks again for a video that stopped arriving.
 */
import type { DownlinkSample } from './downlink-sample.ts';
import { QUEUE_GROWTH_CONGESTED_MS, QUEUE_NEAR_FULL_MS, QUEUE_STANDING_MS } from './queue-delay.ts';

/**
 * What the page's layer requests to Janus are doing (RemoteFeeds): a change of cut is only a wish until Janus has it.
 * `failingMs`: how long layer requests have failed with none answered since (0: not failing); `oldestUnansweredMs`:
 * the age of the oldest one sent and not answered yet.
 */
export interface LayerSignalling {
  failingMs: number;
  oldestUnansweredMs: number;
}

/**
 * No step up while a layer request has gone unanswered this long: on a congested downlink an answer can take a
 * second or two (its TCP segments are lost with the rest), but a step up is only a probe once Janus has it.
 */
export const UNANSWERED_HOLD_MS = 3_000;

/**
 * The controller holds its cut while its layer requests fail: every step then changes nothing Janus forwards, and
 * reading the loss that goes on as more congestion stepped it down to nothing, while clean seconds stepped it back
 * up to everything, so that the first request that got through asked for a plan made of neither (browser test, 1
 * December: every configure failed from 21 s before the lift, and the controller kept stepping up meanwhile).
 */
export function layerRequestsHold(s: LayerSignalling): 'all' | 'up' | null {
  if (s.failingMs > 0) return 'all';
  if (s.oldestUnansweredMs > UNANSWERED_HOLD_MS) return 'up';
  return null;
}

/**
 * Loss this heavy in one second is a link far smaller than what is sent (a shaping, a handover to a poor cell):
 * steps down are twice as long, so the share and the interpreter are on their own at their floor in seconds.
 */
export const VIDEO_LOSS_HEAVY = 0.25;
export const AUDIO_LOSS_HEAVY = 0.1;
/** After a step up taken back for the queue's growth, loss is not read for this long: the two looks that follow. */
export const QUEUE_LOSS_IGNORED_MS = 2_500;

/** Loss above these in one sample is congestion: audio is held to a stricter bar, it is what must get through. */
export const VIDEO_LOSS_CONGESTED = 0.03;
export const AUDIO_LOSS_CONGESTED = 0.02;
/** After a step down, the next waits this long: Janus switches layer on the next key frame, the queue drains. */
export const STEP_DOWN_HOLD_MS = 2_000;
/** No congestion for this long before the first step up; then one step per STEP_UP_INTERVAL_MS while it lasts. */
export const STABLE_MS = 5_000;
export const STEP_UP_INTERVAL_MS = 1_500;
/**
 * At the line past which the share and the interpreter lose their picture (protectedCut), loss must go on this long
 * after the last step before one more rung is taken. A deep congestion takes the ordinary videos off in growing
 * steps, and the loss of the seconds before (the queue draining, the layer switches' key frames) went on long
 * enough to take the share and the interpreter off too (browser test, 1 December: cut 7 → 11 → 13 at 8, 11 and
 * 13 s, and the link clear from 14 s with nothing but the voices on it).
 */
export const PROTECTED_HOLD_MS = 4_000;
/** Congestion this soon after a step up means that step was too much: the stable period doubles, up to the max. */
export const PROBE_FAILED_WITHIN_MS = 6_000;
/**
 * At most this long between probes on a link that cannot take more: longer would keep a viewer whose link has
 * recovered on low layers for long (the issue asks for the top layer back within 15 s), shorter loses packets
 * (audio too: a FIFO on the link drops whatever comes) more often.
 */
export const MAX_STABLE_MS = 6_000;
/** A long clean run forgives earlier failed step ups. */
export const FORGIVE_AFTER_MS = 60_000;

/**
 * Received this close to what the link carried when it last lost packets (its ceiling), the controller is near
 * what the link can take: it steps up one rung per stable period. Received this far above it without loss in one
 * second, the link has grown.
 */
export const NEAR_CEILING = 0.8;
/**
 * Near the ceiling is read from the most received in this many looks, not the last one: the voices talk in spurts
 * (each 25-76 kbit/s on the wire), so a second in which they were silent read far below a link that was full a moment
 * before, and the controller took growing steps up two seconds apart where it should have probed one rung (browser
 * test, 3 December: 262 and 308 kbit/s under a ceiling of 396, two cameras on at once, 447 kbit/s, the queue full
 * and a voice losing 4 % of its packets).
 */
export const NEAR_LOOKS = 5;
export const LINK_GREW = 1.25;
/**
 * A probe that held with every second of it (after its first) this far above the ceiling has grown the link too: a
 * full link cannot carry 10 % over what it carried while it lost packets for two seconds running (a `tc tbf` at 500 kbit/s read
 * 470-520 while shaped). Without this, after a shaping was lifted the lowest rungs (a camera at 180p, ~80-120 kbit/s
 * each, over ~500) took two or three probes of 3-6 s each to reach LINK_GREW, and the focused stream its top layer
 * 26-34 s after the lift.
 */
export const PROBE_GREW = 1.1;
/** The seconds of a probe that count for PROBE_GREW start this long after its step. */
export const PROBE_SETTLE_MS = 1_500;
/**
 * A probe with no loss for this long was taken by the link: the next may follow (a shaping lifted, a better cell).
 * Every second more here is a second more per rung on the way back up after a link has recovered. (2 s was tried on
 * 28 November and did not bring the top layer back sooner in the browser test: 18.1 s in one of three runs.)
 */
export const PROBE_HELD_MS = 3_000;

/**
 * The downlink part of the layer choice, on a controlled clock: `cut` is how many rungs `allocate` takes off.
 * Down fast (more rungs at once the deeper the trouble), up only after a stable period. It remembers what the link
 * carried when packets were last lost (its ceiling): well below it, steps up grow while they hold (1, 1, 2, 2, 3…),
 * so a link that has come back is used again in seconds; near it, one rung per stable period (a probe), so it does
 * not overshoot. A probe that brings loss back goes back to where it started (not further: the loss was the probe's)
 * and makes the next wait longer, so the layer does not flap; one that holds is followed by the next. Carrying well
 * over the ceiling without loss (one second at LINK_GREW, or a whole held probe at PROBE_GREW) means the link has
 * grown: the ceiling and the longer waits are forgotten, and each step gives back half of what is still cut, so a
 * link that has come back (a shaping lifted) is used in full a few seconds after the probe that found the room.
 */
export class DownlinkController {
  private cutNow = 0;
  private lastDown = Number.NEGATIVE_INFINITY;
  private lastUp = Number.NEGATIVE_INFINITY;
  private beforeUp = 0;
  private cleanSince: number | null = null;
  private stableMs = STABLE_MS;
  private downStreak = 0;
  private upStreak = 0;
  private ceiling: number | null = null;
  /** The last step up was a probe near the ceiling, not yet judged. */
  private probing = false;
  /** The least received in a second of the probe being judged (PROBE_GREW). */
  private probeLeast = Number.POSITIVE_INFINITY;
  /** The ceiling was forgotten because the link carried more without loss, and nothing was lost since. */
  private regrown = false;
  /** The last look read a queue standing (QUEUE_STANDING_MS). */
  private standingBefore = false;
  /** Loss until then is a step's already taken back (QUEUE_LOSS_IGNORED_MS). */
  private ignoreLossUntil = Number.NEGATIVE_INFINITY;
  /** What the last NEAR_LOOKS looks received (bit/s). */
  private readonly recent: number[] = [];

  get cut(): number {
    return this.cutNow;
  }

  /** What the link carried as it filled is its ceiling; one second can read low (a burst), so it sinks a tenth at a time. */
  private lowerCeiling(s: DownlinkSample): void {
    if (s.receivedBitrate > 0) this.ceiling = Math.max(s.receivedBitrate, (this.ceiling ?? 0) * 0.9);
  }

  /**
   * Where a step up too much is taken back to: where it started, or one rung further when the queue is near full
   * (QUEUE_NEAR_FULL_MS). Back where it started the link is still nearly full and the queue drains for seconds, every
   * burst meanwhile (a key frame, two voices at once) dropping voices with the videos; one rung more drains it in a
   * second or two. Not past the line where the share or the interpreter lose their picture. The step up to where
   * the probe started comes a stable period later, and is judged as a probe (below, where a step up is taken).
   */
  private stepBack(growth: number | null, limit: number, protect: number): number {
    const further = growth !== null && growth >= QUEUE_NEAR_FULL_MS ? 1 : 0;
    const back = Math.max(this.beforeUp, Math.min(protect, limit, this.beforeUp + further));
    return Math.min(limit, Math.max(this.cutNow, back));
  }

  get stablePeriodMs(): number {
    return this.stableMs;
  }

  /** Bit/s received when packets were last lost (null: none lost, or the link has since carried more). */
  get ceilingBitrate(): number | null {
    return this.ceiling;
  }

  /**
   * Feeds one 1 s sample; `limit` is the largest useful cut (maxCut of the current demands), `protect` the cut past
   * which the share and the interpreter lose their picture (protectedCut; `limit` when there is none). Answers the cut.
   */
  sample(s: DownlinkSample, now: number, limit: number, protect = limit, hold: 'all' | 'up' | null = null): number {
    if (hold === 'all') {
      // Nothing is changing at Janus: no step either way, and the stable period starts again once requests go through.
      this.cleanSince = null;
      this.cutNow = Math.min(this.cutNow, limit);
      return this.cutNow;
    }
    this.recent.push(s.receivedBitrate);
    if (this.recent.length > NEAR_LOOKS) this.recent.shift();
    const congested =
      s.videoLoss > VIDEO_LOSS_CONGESTED ||
      s.audioLoss > AUDIO_LOSS_CONGESTED ||
      (typeof s.availableIncomingBitrate === 'number' && s.availableIncomingBitrate > 0 && s.receivedBitrate > s.availableIncomingBitrate * 1.1);
    if (congested && now < this.ignoreLossUntil) return this.cutNow;
    const growth = typeof s.queueGrowthMs === 'number' ? s.queueGrowthMs : null;
    if (congested) {
      this.cleanSince = null;
      this.upStreak = 0;
      this.regrown = false;
      this.lowerCeiling(s);
      this.probing = false;
      if (now - this.lastUp < PROBE_FAILED_WITHIN_MS) {
        // The last step up was too much: back to where it started, and the next probe waits longer.
        this.stableMs = Math.min(this.stableMs * 2, MAX_STABLE_MS);
        this.cutNow = this.stepBack(growth, limit, protect);
        this.lastUp = Number.NEGATIVE_INFINITY;
        // The step back is a layer switch too (key frames): its own burst is not read as more congestion at once.
        this.lastDown = now + STEP_DOWN_HOLD_MS;
        return this.cutNow;
      }
      const line = Math.min(protect, limit);
      if (this.cutNow >= line) {
        // At or past the line: one rung, and only when loss went on for PROTECTED_HOLD_MS after the last step.
        if (now - this.lastDown >= PROTECTED_HOLD_MS) {
          this.cutNow = Math.min(limit, this.cutNow + 1);
          this.lastDown = now;
        }
      } else if (now - this.lastDown >= STEP_DOWN_HOLD_MS) {
        // One rung, then more the longer it lasts: a 500 kbit/s link under six videos must be reached in seconds;
        // but not past the line in the same step.
        const step = 1 + Math.floor(this.downStreak / 2) + Math.floor(this.cutNow / 4);
        const heavy = s.videoLoss >= VIDEO_LOSS_HEAVY || s.audioLoss >= AUDIO_LOSS_HEAVY;
        this.cutNow = Math.min(line, this.cutNow + (heavy ? 2 * step : step));
        this.downStreak += 1;
        this.lastDown = now;
      }
      return this.cutNow;
    }
    this.downStreak = 0;
    // A queue filling on the link (the voices' delay growing) after a step up: that step was too much, and is taken
    // back before the queue overflows, which on a FIFO costs the voices as much as the videos (2-6 % of their packets
    // per failed probe in the browser test, 1 December). Outside a step up's seconds it only holds the next one back:
    // a key frame's burst also delays the voices for a moment.
    const standing = growth !== null && growth > QUEUE_STANDING_MS;
    const queued = (growth !== null && growth > QUEUE_GROWTH_CONGESTED_MS) || (standing && this.standingBefore);
    this.standingBefore = standing;
    if (queued && now - this.lastUp < PROBE_FAILED_WITHIN_MS) {
      // A second that carried more than the ceiling while the queue grew is a queue draining into a link that has
      // just grown (the second of a lift), not a limit: such a ceiling (574 kbit/s over ~400 in the browser test, 2
      // December) kept the link from reading as grown, and the focused stream off its top layer, for seconds more.
      if (this.ceiling === null || s.receivedBitrate <= this.ceiling) this.lowerCeiling(s);
      this.probing = false;
      this.regrown = false;
      this.upStreak = 0;
      // Found before anything was lost, such a probe cost the voices a moment's delay only: the next comes after the
      // stable period as it is, not a doubled one. Each second of wait here is a second more before a link that has
      // grown is found (browser test, 2 December: 13.2 s to the top layer after a lift 1 s after such a step back,
      // when the next probe waited 2 + 6 s).
      this.cleanSince = now;
      this.cutNow = this.stepBack(growth, limit, protect);
      this.lastUp = Number.NEGATIVE_INFINITY;
      this.lastDown = now;
      // The queue may still overflow before the step back has drained it: that loss is this step's, already taken
      // back, and is not read at all (browser test, 2 December: 6-8 % video loss in the two seconds after such a
      // step back, read as congestion, took the focused stream off as the shaping was lifted, and restarted the
      // stable period: 14.6 s to the top layer).
      this.ignoreLossUntil = now + QUEUE_LOSS_IGNORED_MS;
      return this.cutNow;
    }
    this.cleanSince ??= now;
    const clean = now - this.cleanSince;
    if (clean >= FORGIVE_AFTER_MS) this.stableMs = STABLE_MS;
    // A probe the link took (no loss for a while after it): the next may follow at once, and the wait is short again.
    // The probe's first second may end before Janus has switched layer (it waits for a key frame): not counted.
    if (this.probing && now - this.lastUp >= PROBE_SETTLE_MS) this.probeLeast = Math.min(this.probeLeast, s.receivedBitrate);
    const probeHeld = this.probing && now - this.lastUp >= PROBE_HELD_MS;
    if (probeHeld) {
      this.probing = false;
      this.stableMs = STABLE_MS;
    }
    // Carrying well over the ceiling without loss: the link has grown, the ceiling is forgotten.
    const grew = (this.ceiling !== null && s.receivedBitrate > this.ceiling * LINK_GREW) || (probeHeld && this.ceiling !== null && this.probeLeast > this.ceiling * PROBE_GREW);
    if (grew) {
      this.ceiling = null;
      this.stableMs = STABLE_MS;
      this.regrown = true;
    }
    this.cutNow = Math.min(this.cutNow, limit);
    const near = this.ceiling !== null && Math.max(...this.recent) >= this.ceiling * NEAR_CEILING;
    // Near the ceiling a step is a probe: one rung, then a stable period to see whether the link takes it (every
    // layer switch costs a key frame, a burst that a full queue drops with the voices in it).
    const since = now - Math.max(this.lastUp, this.lastDown);
    const wait = !near ? STEP_UP_INTERVAL_MS : probeHeld ? PROBE_HELD_MS : this.stableMs;
    if (this.cutNow > 0 && clean >= this.stableMs && since >= wait && !queued && hold !== 'up') {
      // Every step up while a ceiling is known is judged as a probe (held PROBE_HELD_MS: the next follows at once;
      // carried PROBE_GREW over the ceiling: the link has grown), also one taken below NEAR_CEILING: the voices
      // silent for a moment, or a step back one rung further (stepBack), read far below the ceiling, and the looks
      // after it near it. Not judged, such a step made the next wait a whole stable period (browser test, 2
      // December: a shaping lifted just before one, the focused stream on its top layer 16.2 s after the lift;
      // its step read 432 and 494 kbit/s over a ceiling of 396, not judged, so not found grown).
      this.probing = this.ceiling !== null;
      this.probeLeast = Number.POSITIVE_INFINITY;
      this.beforeUp = this.cutNow;
      // A link seen to grow past its old ceiling (a shaping lifted, a better cell) gets half of what is still cut
      // back at each step (6 → 3 → 1 → 0, a step every 1.5 s): nothing says how far it grew, and the growing steps
      // below took the focused stream's top layer 5-6 s more after the probe that found the room. A step too far is
      // taken back as any other (back to where it started, then the usual step down on loss that goes on).
      const step = near ? 1 : this.regrown ? Math.ceil(this.cutNow / 2) : 1 + Math.floor(this.upStreak / 2);
      this.cutNow = Math.max(0, this.cutNow - step);
      this.upStreak += 1;
      this.lastUp = now;
    }
    return this.cutNow;
  }
}

/**
 * A video asked for (a layer, `send: true`) from which nothing has arrived for this long on a clean link is asked
 * for again, with `send: true` said anew (Janus then asks its camera for a key frame), at most once per RESUME_AGAIN_MS.
 * In the browser test (1 December) every video went off on a shaped link and, once wanted back, none arrived for
 * the 30 s the run lasted, the voices arriving without loss.
 */
export const RESUME_STALL_MS = 3_000;
export const RESUME_AGAIN_MS = 5_000;

/** Which videos wanted on have been silent too long (see RESUME_STALL_MS); fed once a look, on a controlled clock. */
export class ResumeWatch {
  private readonly silentSince = new Map<string, number>();
  private readonly askedAt = new Map<string, number>();

  /**
   * `wanted`: the stream ids asked for now; `arrived`: those from which video bytes came in the last interval;
   * `clean`: the downlink lost nothing (on a congested one, silence is the queue's). Answers those to ask again.
   */
  look(wanted: ReadonlySet<string>, arrived: ReadonlySet<string>, clean: boolean, now: number): string[] {
    for (const id of this.silentSince.keys()) if (!wanted.has(id) || arrived.has(id)) this.silentSince.delete(id);
    for (const id of this.askedAt.keys()) if (!wanted.has(id)) this.askedAt.delete(id);
    const again: string[] = [];
    for (const id of wanted) {
      if (arrived.has(id)) continue;
      const since = this.silentSince.get(id) ?? now;
      this.silentSince.set(id, since);
      if (!clean || now - since < RESUME_STALL_MS) continue;
      if (now - (this.askedAt.get(id) ?? Number.NEGATIVE_INFINITY) < RESUME_AGAIN_MS) continue;
      this.askedAt.set(id, now);
      again.push(id);
    }
    return again;
  }
}
