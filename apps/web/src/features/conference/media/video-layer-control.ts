import { cameraStreamId, type CallModel, type CallState, type ReceivedVideo } from '../model/call-model.ts';
import { expectedTileHeight } from '../model/layout.ts';
import type { VideoWant } from '../model/subscription-plan.ts';
import { allocate, awaitingTile, CAMERA_RUNGS, currentSpeaker, maxCut, protectedCut, SPEAKING_LEVEL, speakerRanks, type LayerChoice, type VideoDemand } from '../model/video-layers.ts';
import { DownlinkController, layerRequestsHold, ResumeWatch, AUDIO_LOSS_CONGESTED, VIDEO_LOSS_CONGESTED } from '../model/downlink-controller.ts';
import { downlinkSample, downlinkTotals, type DownlinkSample, type DownlinkTotals } from '../model/downlink-sample.ts';
import type { LayerSignallingState, RemoteFeeds } from './remote-feeds.ts';
import type { Report } from './stats-poller.ts';

/**
 * Applies the layer choice of model/video-layers.ts once a second, after the stats poll: measures each remote
 * tile on the page (its rendered size, whether it is a mini, whether the tab is visible), reads the downlink from
 * the subscriber connection's report, and tells RemoteFeeds what to forward per video. The call model gets what is
 * received, for the tiles ("no video: the connection is too slow") and the network-quality menu.
 */
export class VideoLayerControl {
  private readonly downlink = new DownlinkController();
  private totals: DownlinkTotals | null = null;
  /** The last second's sample: one in which nothing arrived was an outage (downlinkSample). */
  private lastSample: DownlinkSample | null = null;
  private speaker: { streamId: string; at: number } | null = null;
  /** When each stream's voice was last heard speaking (speakerRanks), and those ranks as of this look. */
  private readonly lastHeard = new Map<string, number>();
  private ranks = new Map<string, number>();
  private interpreters = new Set<string>();
  /** When each received video was first seen here, and whether its tile has been on the page (awaitingTile). */
  private readonly received = new Map<string, { arrivedAt: number; tileSeen: boolean }>();
  /** The last look's demands (firstLayer places a new video among them). */
  private demands: VideoDemand[] = [];
  /**
   * The last LOG_SECONDS looks, oldest first: what the controller read and what it chose, for the browser tests
   * (e2e/adaptive-quality.spec.ts prints it around a shaping) and for reading a slow recovery after the fact.
   */
  readonly log: LayerLogEntry[] = [];
  private lastVideoBytes: { at: number; bytes: Map<string, number> } | null = null;
  private readonly resume = new ResumeWatch();

  constructor(
    private readonly model: CallModel,
    private readonly remote: () => RemoteFeeds | null,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The interpreters' camera stream ids (the page knows the booked roles). */
  setInterpreters(streamIds: readonly string[]): void {
    this.interpreters = new Set(streamIds);
  }

  /**
   * One poll's report of the subscriber connection, and how much the queue on the downlink grew lately in ms (from
   * the decryption worker, model/queue-delay.ts; null: not known).
   */
  update(reports: Report[], queueGrowth: number | null = null): void {
    const remote = this.remote();
    if (!remote) return;
    const streams = remote.streams();
    const now = this.now();

    const levels = new Map<string, number>();
    const streamOfMid = new Map<string, string>();
    for (const s of streams) for (const mid of s.mids) streamOfMid.set(mid, s.streamId);
    for (const r of reports) {
      if (r.type !== 'inbound-rtp' || r.kind !== 'audio' || typeof r.audioLevel !== 'number') continue;
      const id = streamOfMid.get(String(r.mid));
      if (id) levels.set(id, Math.max(levels.get(id) ?? 0, r.audioLevel));
    }
    this.speaker = currentSpeaker(levels, this.speaker, now);
    const live = new Set(streams.map((s) => s.streamId));
    for (const id of this.lastHeard.keys()) if (!live.has(id)) this.lastHeard.delete(id);
    for (const [id, level] of levels) if (level > SPEAKING_LEVEL) this.lastHeard.set(id, now);
    this.ranks = speakerRanks(this.lastHeard);

    const state = this.model.getState();
    for (const id of this.received.keys()) if (!live.has(id)) this.received.delete(id);
    const demands: VideoDemand[] = [];
    for (const s of streams) {
      let seen = this.received.get(s.streamId);
      if (!seen) this.received.set(s.streamId, (seen = { arrivedAt: now, tileSeen: false }));
      const size = measureTile(s.streamId);
      if (size.mounted) seen.tileSeen = true;
      else if (awaitingTile(seen.tileSeen, seen.arrivedAt, now)) continue;
      demands.push(this.demand(s.streamId, size, state));
    }
    this.demands = demands;
    const totals = downlinkTotals(reports);
    const measured = downlinkSample(this.totals, totals, this.lastSample, this.settlingMids(streams));
    const sample = measured && { ...measured, queueGrowthMs: queueGrowth };
    this.totals = totals;
    this.lastSample = sample;
    const limit = maxCut(demands);
    const signalling = remote.signallingState();
    if (sample) this.downlink.sample(sample, now, limit, protectedCut(demands), layerRequestsHold(signalling));

    const wants = new Map<string, VideoWant>();
    const received: Record<string, ReceivedVideo> = {};
    const plans = allocate(demands, this.downlink.cut);
    this.log.push({
      at: now,
      sample,
      cut: this.downlink.cut,
      limit,
      ceiling: this.downlink.ceilingBitrate,
      stableMs: this.downlink.stablePeriodMs,
      speaker: this.speaker?.streamId ?? null,
      plans: Object.fromEntries(plans.map((p) => [p.streamId, p.send ? `${p.layer.substream}/${p.layer.temporal}` : 'off'])),
      videoKbps: videoKbps(this.lastVideoBytes, reports, streamOfMid),
      signalling,
    });
    this.lastVideoBytes = videoBytes(reports, streamOfMid);
    if (this.log.length > LOG_SECONDS) this.log.splice(0, this.log.length - LOG_SECONDS);
    const arriving = this.log.at(-1)!.videoKbps;
    const clean = sample !== null && sample.videoLoss <= VIDEO_LOSS_CONGESTED && sample.audioLoss <= AUDIO_LOSS_CONGESTED;
    // Cameras only: a share of a still screen may send next to nothing for seconds.
    const wantedOn = new Set(plans.filter((p) => p.send && !p.streamId.startsWith('screen-')).map((p) => p.streamId));
    const arrived = new Set(Object.entries(arriving).filter(([, kbps]) => kbps > 0).map(([id]) => id));
    for (const id of this.resume.look(wantedOn, arrived, clean, now)) remote.askAgain(id);
    for (const plan of plans) {
      const screen = plan.streamId.startsWith('screen-');
      // A screen share is one layer: Janus is told only whether to send it.
      wants.set(plan.streamId, plan.send ? (screen ? { send: true } : { send: true, ...plan.layer }) : { send: false });
      const layer = remote.receivedLayer(plan.streamId);
      received[plan.streamId] = plan.send
        ? { off: null, singleLayer: screen, substream: screen ? null : (layer?.substream ?? null), temporal: screen ? null : (layer?.temporal ?? null) }
        : { off: plan.reason, singleLayer: screen, substream: null, temporal: null };
    }
    remote.setVideoWants(wants);
    this.model.setVideoLayers(received);
  }

  /** The mids of the videos whose plan changed in the last two looks (downlinkSample leaves their loss out). */
  private settlingMids(streams: readonly { streamId: string; mids: readonly string[] }[]): Set<string> {
    const [a, b, c] = this.log.slice(-3).map((e) => e.plans);
    const changed = (x: Record<string, string> | undefined, y: Record<string, string> | undefined, id: string) => x !== undefined && y !== undefined && x[id] !== y[id];
    const mids = new Set<string>();
    for (const s of streams) {
      if (changed(a, b, s.streamId) || changed(b, c, s.streamId)) for (const mid of s.mids) mids.add(mid);
    }
    return mids;
  }

  /**
   * The layer a camera not received yet starts at: what its tile needs now (on the page already, showing initials;
   * or, when the screen has not drawn it yet, a cell of the grid of everyone in the call), beside the videos
   * received and under the downlink's present cut. The next look corrects it once the tile is there.
   */
  firstLayer(streamId: string): LayerChoice | null {
    if (streamId.startsWith('screen-')) return null;
    const state = this.model.getState();
    const measured = measureTile(streamId);
    const size = measured.mounted ? measured : { height: expectedHeight(Math.max(state.connections.length, 2)), mini: false };
    const demands = [...this.demands.filter((d) => d.streamId !== streamId), this.demand(streamId, size, state)];
    const plan = allocate(demands, this.downlink.cut).find((p) => p.streamId === streamId);
    // Not visible or no room on the downlink: the lowest layer until the next look turns it off.
    return plan?.send ? plan.layer : CAMERA_RUNGS[1]!;
  }

  private demand(streamId: string, size: { height: number; mini: boolean }, state: CallState): VideoDemand {
    return {
      streamId,
      kind: streamId.startsWith('screen-') ? 'screen' : 'camera',
      interpreter: this.interpreters.has(streamId),
      speakerRank: this.ranks.get(streamId) ?? null,
      focused: state.streamWithFocus?.streamId === streamId,
      mini: size.mini,
      height: size.height,
      // The sender turned its camera off (a screen's stream id never matches a camera's).
      cameraOff: state.connections.some((c) => !c.hasVideo && cameraStreamId(c.connectionId) === streamId),
    };
  }

  /** For the browser tests: the rungs taken off now. */
  get cut(): number {
    return this.downlink.cut;
  }
}

/** One look of VideoLayerControl: the sample read, the controller's state after it, each video's layer (s/t or off). */
export interface LayerLogEntry {
  at: number;
  sample: DownlinkSample | null;
  cut: number;
  limit: number;
  ceiling: number | null;
  stableMs: number;
  speaker: string | null;
  plans: Record<string, string>;
  /** Video received per stream id in the last interval: what Janus actually forwards. */
  videoKbps: Record<string, number>;
  /** RemoteFeeds' side: what it believes Janus holds, configures unanswered or failing, a request under way, a pause. */
  signalling: LayerSignallingState;
}

function videoBytes(reports: readonly Report[], streamOfMid: ReadonlyMap<string, string>): { at: number; bytes: Map<string, number> } {
  const bytes = new Map<string, number>();
  let at = 0;
  for (const r of reports) {
    if (r.type !== 'inbound-rtp' || r.kind !== 'video') continue;
    const id = streamOfMid.get(String(r.mid));
    if (!id) continue;
    bytes.set(id, (bytes.get(id) ?? 0) + Number(r.bytesReceived ?? 0));
    at = Math.max(at, Number(r.timestamp ?? 0));
  }
  return { at, bytes };
}

function videoKbps(prev: { at: number; bytes: Map<string, number> } | null, reports: readonly Report[], streamOfMid: ReadonlyMap<string, string>): Record<string, number> {
  const cur = videoBytes(reports, streamOfMid);
  const out: Record<string, number> = {};
  if (!prev || cur.at <= prev.at) return out;
  for (const [id, b] of cur.bytes) out[id] = Math.round(((b - (prev.bytes.get(id) ?? b)) * 8) / (cur.at - prev.at));
  return out;
}

/** Five minutes of looks: a few kilobytes. */
const LOG_SECONDS = 300;

/** A grid cell's height in device pixels for `people`, in the video area if the screen has one yet, else the window. */
function expectedHeight(people: number): number {
  if (typeof document === 'undefined') return 0;
  const area = document.querySelector('main.video-area')?.getBoundingClientRect();
  const size = area && area.width > 0 && area.height > 0 ? area : { width: window.innerWidth, height: window.innerHeight };
  return Math.round(expectedTileHeight(people, size) * (window.devicePixelRatio || 1));
}

/**
 * A tile's rendered height in device pixels (0 when it is not on screen: collapsed minis, a hidden tab, a tile
 * scrolled out of the page), read from the tiles' `data-stream-id`. The media layer reads the page rather than
 * have every tile report its size, so that the tiles stay free of media concerns.
 */
function measureTile(streamId: string): { height: number; mini: boolean; mounted: boolean } {
  if (typeof document === 'undefined') return { height: 0, mini: false, mounted: false };
  const figure = document.querySelector(`figure.tile[data-stream-id="${CSS.escape(streamId)}"]`);
  if (!figure) return { height: 0, mini: false, mounted: false };
  if (document.visibilityState === 'hidden') return { height: 0, mini: false, mounted: true };
  const rect = figure.getBoundingClientRect();
  const onScreen = rect.bottom > 0 && rect.right > 0 && rect.top < window.innerHeight && rect.left < window.innerWidth;
  return { height: onScreen ? Math.round(rect.height * (window.devicePixelRatio || 1)) : 0, mini: figure.classList.contains('tile--mini'), mounted: true };
}
