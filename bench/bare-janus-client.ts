/**
 * The bare-Janus baseline of `bench/media-call.ts`, run as a page script: janus.js straight to Janus's WebSocket,
 * no relay of ours, no login, no media token, no end-to-end encryption, in a room created without `require_e2ee`.
 * It does what a page of the product does in a call, no more: publishes its camera (and microphone when asked),
 * receives every other publisher of the room on ONE subscriber connection (Janus multistream), following
 * publishers as they come and go, and shows each received video in a tile and plays each voice (and its own camera
 * in a self view). The bench serves it transpiled to JavaScript, with janus.js from node_modules beside it.
 *
 * Query: `ws` (Janus WebSocket URL), `token` (Janus's own signed token: token_auth is on in the product's Janus
 * configuration), `room`, `name`, `audio=1` to publish a microphone, `camera=off` to publish the camera track
 * disabled (as the product does until 'Slå på din kamera'); for the grid figure, `publish=0` (a viewer: joins, sends
 * nothing) and `subscribe=0` (a publisher that receives nothing); `simulcast=1` sends the camera as the product does
 * (three VP8 layers h/m/l at full, half and quarter size, 1200/450/150 kbit/s: the product's default caps), and
 * `substream=0|1|2` has a viewer ask Janus for that layer of every video it receives (a grid of small tiles: 0).
 * `start=click` waits for `__bare.join()` before it connects.
 *
 * `window.__bare` holds when the session started (performance.now()), the error if one happened, and the camera track.
 */
import type { JanusJS } from 'janus-gateway';
import type * as OpusDtx from '../apps/web/src/features/conference/model/opus-dtx.ts';

type Handle = JanusJS.PluginHandle;
interface BareState {
  startedAt: number;
  /** With `start=click`: starts the session (set once the page is ready for it). */
  join?: () => void;
  error: string;
  camera: MediaStreamTrack | null;
}

const q = new URLSearchParams(location.search);
const room = Number(q.get('room'));
const state: BareState = { startedAt: 0, error: '', camera: null };
(window as unknown as { __bare: BareState }).__bare = state;
const fail = (what: string) => (err: unknown) => {
  state.error ||= `${what}: ${typeof err === 'string' ? err : JSON.stringify(err)}`;
};

// Loaded at run time from beside this script (the bench serves it); the import is not resolved when compiling.
const lib = './janus.es.js';
const Janus = ((await import(lib)) as { default: typeof JanusJS.Janus }).default;
// The product's own rule, served transpiled beside it: the same audio is sent in both phases (Opus DTX).
const dtxLib = './opus-dtx.js';
const { withOpusDtx } = (await import(dtxLib)) as typeof OpusDtx;
// As the product: no webrtc-adapter, only the browserDetails janus.js reads of it (the bench runs Chromium).
const adapter = { browserDetails: { browser: 'chrome', version: Number(/Chrom(?:e|ium)\/(\d+)\./.exec(navigator.userAgent)?.[1]) } };
await new Promise<void>((resolve) => Janus.init({ debug: false, dependencies: Janus.useDefaultDependencies({ adapter } as never), callback: resolve }));

// `start=click`: the page waits, loaded and janus.js initialised, until `__bare.join()` (the bench's join from a
// page that is already open, as the product's lobby is); otherwise it joins at once.
if (q.get('start') === 'click') await new Promise<void>((resolve) => (state.join = resolve));
state.startedAt = performance.now();
const janus = await new Promise<JanusJS.Janus>((resolve) => {
  const j: JanusJS.Janus = new Janus({ server: String(q.get('ws')), token: String(q.get('token')), iceServers: [], success: () => resolve(j), error: fail('session') });
});

// Receiving: one subscriber handle; `join` with the first feeds, then one `update` at a time for later ones.
let subscriber: Handle | null = null;
let busy = false;
const asked = new Set<number>();
const queue: number[] = [];
const pump = (): void => {
  if (busy || queue.length === 0) return;
  const feeds = queue.splice(0).filter((f) => !asked.has(f));
  if (feeds.length === 0) return;
  busy = true;
  for (const f of feeds) asked.add(f);
  const streams = feeds.map((feed) => ({ feed }));
  if (subscriber) {
    subscriber.send({ message: { request: 'update', subscribe: streams }, error: fail('update') });
    return;
  }
  janus.attach({
    plugin: 'janus.plugin.videoroom',
    success: (h) => {
      subscriber = h;
      h.send({ message: { request: 'join', ptype: 'subscriber', room, streams }, error: fail('subscribe') });
    },
    error: fail('attach subscriber'),
    onremotetrack: (track, mid, on) => show(track, `remote-${mid}`, on),
    onmessage: (msg, jsep) => {
      if (msg.error) {
        // A feed that left before the request reached Janus: forget it and go on with the rest.
        busy = false;
        pump();
        return;
      }
      if (!jsep) {
        if (msg.videoroom === 'updated') {
          busy = false;
          pump();
        }
        return;
      }
      subscriber?.createAnswer({
        jsep,
        // Data only: audio and video m-lines are accepted receive-only as Janus offers them (as the product does).
        tracks: [{ type: 'data', capture: false }],
        success: (answer) => {
          subscriber?.send({ message: { request: 'start' }, jsep: answer });
          chooseLayer();
          busy = false;
          pump();
        },
        error: fail('answer'),
      });
    },
  });
};
/**
 * Shows a received video in a tile and plays a received voice, as any client's page must (the product's grid does
 * both): without it this page would decode but neither composite nor play, and weigh far less on the machine.
 */
const show = (track: MediaStreamTrack, key: string, on: boolean): void => {
  document.getElementById(key)?.remove();
  if (!on) return;
  const el = document.createElement(track.kind === 'video' ? 'video' : 'audio');
  el.id = key;
  el.autoplay = true;
  if (el instanceof HTMLVideoElement) {
    el.muted = el.playsInline = true;
    el.style.cssText = 'width: 320px; height: 180px; object-fit: cover; background: #000';
  }
  el.srcObject = new MediaStream([track]);
  document.body.append(el);
};
/** With `substream`: that simulcast layer of every received video (Janus forwards the others to no one here). */
const chooseLayer = (): void => {
  const substream = q.get('substream');
  const pc = (subscriber as unknown as { webrtcStuff?: { pc?: RTCPeerConnection } } | null)?.webrtcStuff?.pc;
  if (substream === null || !pc) return;
  const mids = pc.getTransceivers().filter((t) => t.receiver.track.kind === 'video' && t.mid).map((t) => t.mid!);
  if (mids.length) subscriber?.send({ message: { request: 'configure', streams: mids.map((mid) => ({ mid, substream: Number(substream) })) }, error: fail('configure layer') });
};
const simulcast = q.get('simulcast') === '1';
// scalabilityMode is newer than the DOM library this compiles against.
const SIMULCAST_ENCODINGS = [
  { rid: 'h', active: true, maxBitrate: 1_200_000, scalabilityMode: 'L1T3' },
  { rid: 'm', active: true, maxBitrate: 450_000, scaleResolutionDownBy: 2, scalabilityMode: 'L1T3' },
  { rid: 'l', active: true, maxBitrate: 150_000, scaleResolutionDownBy: 4, scalabilityMode: 'L1T3' },
] as unknown as RTCRtpEncodingParameters[];
let myId = 0;
const follow = (msg: JanusJS.Message): void => {
  const publishers = (msg.publishers as { id: number }[] | undefined) ?? [];
  if (q.get('subscribe') !== '0') for (const p of publishers) if (p.id !== myId && !asked.has(p.id)) queue.push(p.id);
  // Janus itself renegotiates a subscription when one of its feeds goes; it may be asked for again if it returns.
  for (const gone of [msg.leaving, msg.unpublished]) if (typeof gone === 'number') asked.delete(gone);
  pump();
};

// Publishing: the camera (and microphone), as the product's publisher sends them. The devices are asked for while
// the publisher joins: the room's list of publishers comes with the join, and receiving must not wait for a camera.
const publishing = q.get('publish') !== '0';
const media = !publishing ? Promise.resolve(new MediaStream()) : navigator.mediaDevices.getUserMedia({ audio: q.get('audio') === '1', video: { width: { ideal: 1280 }, height: { ideal: 720 } } });
let publisher: Handle | null = null;
janus.attach({
  plugin: 'janus.plugin.videoroom',
  success: (h) => {
    publisher = h;
    h.send({ message: { request: 'join', ptype: 'publisher', room, display: String(q.get('name')) }, error: fail('join') });
  },
  error: fail('attach publisher'),
  onmessage: (msg, jsep) => {
    if (msg.videoroom === 'joined') myId = Number(msg.id);
    follow(msg);
    if (msg.videoroom === 'joined' && publishing) {
      media.then((stream) => {
        const camera = stream.getVideoTracks()[0] ?? null;
        if (camera) camera.enabled = q.get('camera') !== 'off';
        state.camera = camera;
        if (camera) show(camera, 'own', true); // the self view
        publisher?.createOffer({
          tracks: stream.getTracks().map(
            (t): JanusJS.TrackOption =>
              t.kind === 'video' && simulcast
                ? ({ type: 'video', capture: t, recv: false, simulcast: true, sendEncodings: SIMULCAST_ENCODINGS } as JanusJS.TrackOption)
                : { type: t.kind as 'audio' | 'video', capture: t, recv: false },
          ),
          customizeSdp: (jsep) => void (jsep.sdp = withOpusDtx(jsep.sdp ?? '')),
          success: (offer) => publisher?.send({ message: { request: 'configure', audio: true, video: true }, jsep: offer }),
          error: fail('offer'),
        });
      }, fail('camera'));
    }
    if (jsep) publisher?.handleRemoteJsep({ jsep });
  },
});
