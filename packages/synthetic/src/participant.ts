/**
 * A synthetic participant: it joins a meeting exactly as a person's browser does (login through the embedded test
 * IdP, the lobby's consent with the media token, the `/media` relay with its checks, the meeting key) and publishes
 * pre-encoded media on a real WebRTC stack (node-datachannel: ICE, DTLS-SRTP, BUNDLE): VP8 in three simulcast layers
 * (rids h, m, l, as the web app sends them) with three temporal layers each, and Opus, every frame sealed with the
 * meeting key by the web app's own frame-crypto. No encoding, no decoding.
 */
import { randomInt } from 'node:crypto';
import nodeDataChannel from 'node-datachannel';
import { SCREEN_HANDLE_TAG, type GetTokenData } from '@videomote/contract/media';
import { Browserless, type Login } from './http-login.ts';
import { MediaSocket } from './media-socket.ts';
import { RemoteCandidates } from './remote-candidates.ts';
import { FrameSealer } from './sealer.ts';
import { nextKeyFrame, RIDS, SCREEN_FPS, type Clips, type Rid, type VideoClip } from './clips.ts';
import type { Pacer } from './pacer.ts';
import { packetize } from './vp8.ts';
import { isRtcp, keyFrameRequests, writeRtp } from './rtp.ts';
import { sendsFrame, SILENT_FRAME_MAX_BYTES } from './opus-dtx.ts';

const { PeerConnection, Video, Audio } = nodeDataChannel;
type PeerConnection = InstanceType<typeof PeerConnection>;
type Track = ReturnType<PeerConnection['addTrack']>;

/** Header extension ids we offer (Janus answers with the same): the mid, and the rid of each simulcast packet. */
export const EXT_MID = 4;
export const EXT_RID = 10;
const VP8_PT = 96;
const OPUS_PT = 111;
const FRAME_MS = 1000 / 30;
const OPUS_MS = 20;

export interface JoinOptions {
  /** The server's public URL, e.g. http://127.0.0.1:8080. */
  base: string;
  meetingId: string;
  login: Login;
  displayName?: string;
  /** A test's participant that seals with these key bytes instead of the meeting's (base64url, 32 bytes). */
  wrongKey?: string;
  /** The client address a trusted reverse proxy would report (X-Forwarded-For), for benches of many visitors. */
  forwardedFor?: string;
  /** Cookies the browser holds before its first request, e.g. a load balancer's stickiness cookie (name → value). */
  cookies?: Record<string, string>;
}

/**
 * What a publisher and a viewer need of whoever they belong to: a Janus session on a socket, the sealer their frames
 * go through, and whether they tell Janus the media is end-to-end encrypted (a `require_e2ee` room wants it).
 */
export interface JanusSide {
  readonly socket: MediaSocket;
  readonly sealer: FrameSealer;
  readonly e2ee: boolean;
}

export interface PublishOptions {
  /** Opus beside the camera; on unless false. */
  audio?: boolean;
  /** A screen share (one layer at 5 frames/s on a handle tagged as the web app tags it) instead of the camera. */
  screen?: boolean;
  /** false: the camera as ONE layer (the h clip, no rids), as a sender without simulcast; three layers unless so. */
  simulcast?: boolean;
}

/** Someone in the meeting: logged in, holding the media token, the key and the `/media` socket with its Janus session. */
export class SyntheticParticipant implements JanusSide {
  readonly sealer = new FrameSealer();
  readonly e2ee = true;
  private readonly publishers: Publisher[] = [];
  private current: MediaSocket;
  private leaving = false;
  /** Fresh starts after a lost `/media` socket (keepConnected). */
  reconnects = 0;
  /** Why fresh starts failed (keepConnected), for a test's failure message. */
  readonly restartFailures: string[] = [];

  private constructor(
    readonly http: Browserless,
    socket: MediaSocket,
    readonly token: GetTokenData,
    private readonly opts: JoinOptions,
  ) {
    this.current = socket;
    this.wire(socket);
  }

  static async join(opts: JoinOptions): Promise<SyntheticParticipant> {
    const http = new Browserless(opts.base, forwardedHeaders(opts), opts.cookies);
    await http.login(opts.login);
    // A webcast visitor has no lobby: the public page asks for the token without a consent.
    const token = await http.mediaToken(opts.meetingId, { displayName: opts.displayName, consent: !('visitor' in opts.login) });
    const socket = await MediaSocket.open({ base: opts.base, meetingId: opts.meetingId, token: token.tokenData.token, cookie: http.jar.header(), headers: forwardedHeaders(opts) });
    const p = new SyntheticParticipant(http, socket, token, opts);
    await p.sealer.setKey(token.mediaKey.epoch, token.mediaKey.key, opts.wrongKey);
    await socket.createSession();
    return p;
  }

  /** The current `/media` socket (a new one after each fresh start). */
  get socket(): MediaSocket {
    return this.current;
  }

  get connectionId(): string {
    return this.current.hello.connectionId;
  }

  private wire(socket: MediaSocket): void {
    socket.onOwn((m) => {
      if (m.videomote === 'mediaKey') void this.sealer.setKey(m.epoch, m.key, this.opts.wrongKey);
      if (m.videomote === 'mediaProtection') this.sealer.endToEnd = m.endToEnd;
    });
  }

  /**
   * After a lost `/media` socket (its app node or its Janus died), starts afresh as the web app's media session does
   * (onLost → connect): a new socket with the same token and session cookie, a new Janus session, after 0.5 s and
   * doubling to 8 s between failed attempts (the web app's reconnectDelay); then `restore` publishes or subscribes
   * again on it. The first attempt is the web app's first retry; a refusal of the meeting itself is not retried.
   */
  keepConnected(restore: (p: SyntheticParticipant) => Promise<void>): void {
    const watch = (socket: MediaSocket) =>
      socket.onClose(() => {
        if (this.leaving) return;
        void (async () => {
          for (let attempt = 1; !this.leaving; attempt++) {
            await new Promise((r) => setTimeout(r, Math.min(500 * 2 ** Math.min(attempt - 1, 4), 8_000)));
            if (this.leaving) return;
            try {
              const next = await MediaSocket.open({ base: this.opts.base, meetingId: this.opts.meetingId, token: this.token.tokenData.token, cookie: this.http.jar.header(), headers: forwardedHeaders(this.opts) });
              this.current = next;
              this.wire(next);
              await next.createSession();
              this.reconnects += 1;
              await restore(this);
              watch(next);
              return;
            } catch (err) {
              this.restartFailures.push(`attempt ${attempt}: ${(err as Error).message}`);
              if (/answered HTTP 40[13]/.test((err as Error).message)) return;
              this.current.close();
            }
          }
        })();
      });
    watch(this.current);
  }

  /**
   * Publishes the camera (three simulcast layers and, unless `audio: false`, Opus) or, with `screen`, a screen
   * share (one layer, the h clip, on a handle tagged as the web app tags it). Resolves once media flows.
   */
  async publish(clips: Clips, pacer: Pacer, options: PublishOptions = {}): Promise<Publisher> {
    const publisher = new Publisher(this, clips, pacer, options);
    this.publishers.push(publisher);
    await publisher.start();
    if (!options.screen) this.announce(options.audio ?? true);
    return publisher;
  }

  /** Publishes every publisher again on the current socket (after a fresh start: new handles, new feed ids). */
  async republish(): Promise<void> {
    for (const p of this.publishers) await p.restart();
    if (this.publishers.some((p) => !p.screen)) this.announce(this.publishers.some((p) => p.withAudio));
  }

  private announce(hasAudio: boolean): void {
    this.current.sendOwn({ videomote: 'state', hasAudio, hasVideo: true });
  }

  close(): void {
    this.leaving = true;
    for (const p of this.publishers) p.close();
    this.current.close();
  }
}

function forwardedHeaders(opts: JoinOptions): Record<string, string> {
  return opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {};
}

/** Per simulcast layer: its clip, SSRC and the VP8 counters a browser keeps (picture id, TL0PICIDX). */
interface LayerState {
  rid: Rid;
  clip: VideoClip;
  ssrc: number;
  seq: number;
  pos: number;
  pictureId: number;
  tl0: number;
  wantKey: boolean;
  framesSent: number;
  keyFramesSent: number;
}

export class Publisher {
  private pc: PeerConnection | null = null;
  private video: Track | null = null;
  private audio: Track | null = null;
  private handle = 0;
  private readonly layers: LayerState[];
  private readonly audioState = { ssrc: randomInt(1, 2 ** 31), seq: randomInt(0, 65535), pos: 0, sent: 0, silentBefore: 0 };
  private readonly tsBase = randomInt(0, 2 ** 31);
  private readonly stops: (() => void)[] = [];
  readonly stats = { packetsSent: 0, bytesSent: 0, keyRequests: 0 };
  private readonly opus: Uint8Array[];
  readonly screen: boolean;
  readonly withAudio: boolean;
  feedId = 0;

  constructor(
    private readonly who: JanusSide,
    clips: Clips,
    private readonly pacer: Pacer,
    options: PublishOptions,
  ) {
    const screen = (this.screen = options.screen ?? false);
    this.withAudio = !screen && (options.audio ?? true);
    const rids: Rid[] = screen || options.simulcast === false ? ['h'] : [...RIDS];
    this.layers = rids.map((rid) => ({
      rid,
      clip: screen ? clips.screen : clips.video[rid],
      ssrc: randomInt(1, 2 ** 31),
      seq: randomInt(0, 65535),
      pos: 0,
      pictureId: randomInt(0, 0x7fff),
      tl0: randomInt(0, 255),
      wantKey: false,
      framesSent: 0,
      keyFramesSent: 0,
    }));
    this.opus = clips.opus;
    // Each voice starts at its own point of the clip, so that the people of a call do not all talk at once.
    this.audioState.pos = randomInt(0, this.opus.length);
  }

  /** Frames sent so far per layer (rid → count). */
  framesSent(): Record<string, number> {
    return Object.fromEntries(this.layers.map((l) => [l.rid, l.framesSent]));
  }

  /** Publishes again on the participant's current socket: a new handle, connection and feed id. */
  async restart(): Promise<void> {
    this.close();
    await this.start();
  }

  async start(): Promise<void> {
    const socket = this.who.socket;
    const candidates = new RemoteCandidates();
    this.handle = await socket.attach((m) => candidates.heard(m), this.screen ? SCREEN_HANDLE_TAG : undefined);
    const joined = await socket.message(this.handle, { request: 'join', ptype: 'publisher', room: socket.roomId });
    this.feedId = Number(joined.data.id);

    const pc = new PeerConnection(`synthetic-${this.feedId}`, { iceServers: [] });
    this.pc = pc;
    const cname = `synthetic${randomInt(0, 1e9)}`;
    const stream = `stream${randomInt(0, 1e9)}`;
    let mid = 0;
    if (this.withAudio) {
      const audio = new Audio(String(mid++), 'SendOnly');
      audio.addOpusCodec(OPUS_PT);
      audio.addSSRC(this.audioState.ssrc, cname, stream, 'audio');
      audio.parseSdpLine(`a=extmap:${EXT_MID} urn:ietf:params:rtp-hdrext:sdes:mid`);
      this.audio = pc.addTrack(audio);
    }
    const videoMid = String(mid++);
    const video = new Video(videoMid, 'SendOnly');
    video.addVP8Codec(VP8_PT);
    // SSRCs lowest layer first: Janus takes the first SSRC of the description for its substream 0.
    for (const l of this.layers) video.addSSRC(l.ssrc, cname, stream, 'video');
    video.parseSdpLine(`a=extmap:${EXT_MID} urn:ietf:params:rtp-hdrext:sdes:mid`);
    if (this.layers.length > 1) {
      video.parseSdpLine(`a=extmap:${EXT_RID} urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id`);
      // As Chromium offers the web app's three encodings: highest first (Janus's default rid order, `hml`).
      for (const rid of ['h', 'm', 'l']) video.parseSdpLine(`a=rid:${rid} send`);
      video.parseSdpLine('a=simulcast:send h;m;l');
    }
    this.video = pc.addTrack(video);
    this.video.onMessage((msg) => this.onVideoRtcp(msg));

    const gathered = new Promise<void>((resolve) => pc.onGatheringStateChange((s) => s === 'complete' && resolve()));
    const open = new Promise<void>((resolve, reject) => {
      this.video!.onOpen(() => resolve());
      pc.onStateChange((s) => (s === 'failed' ? reject(new Error('publisher connection failed')) : undefined));
    });
    pc.setLocalDescription();
    await gathered;
    const offer = pc.localDescription()!;
    const configured = await socket.message(this.handle, { request: 'configure', audio: this.withAudio, video: true }, { type: 'offer', sdp: offer.sdp, ...(this.who.e2ee ? { e2ee: true } : {}) });
    if (!configured.jsep) throw new Error('Janus sent no answer');
    pc.setRemoteDescription(configured.jsep.sdp, 'answer');
    candidates.ready(pc);
    await withTimeout(open, 20_000, 'the publisher connection did not open');
    this.stops.push(this.pacer.add({ periodMs: this.screen ? 1000 / SCREEN_FPS : FRAME_MS, run: (due) => this.sendVideo(due) }));
    if (this.withAudio) this.stops.push(this.pacer.add({ periodMs: OPUS_MS, run: (due) => this.sendAudio(due) }));
  }

  /** PLI or FIR for a layer: its next frame is the loop's next key frame of that layer. */
  private onVideoRtcp(msg: Buffer): void {
    if (!isRtcp(msg)) return;
    for (const ssrc of keyFrameRequests(msg)) {
      const layer = this.layers.find((l) => l.ssrc === ssrc);
      if (!layer) continue;
      layer.wantKey = true;
      this.stats.keyRequests += 1;
    }
  }

  private async sendVideo(dueMs: number): Promise<void> {
    const ts = (this.tsBase + Math.round(dueMs * 90)) >>> 0;
    for (const layer of this.layers) {
      if (layer.wantKey) {
        layer.pos = nextKeyFrame(layer.clip, layer.pos);
        layer.wantKey = false;
      }
      const frame = layer.clip.frames[layer.pos]!;
      layer.pos = (layer.pos + 1) % layer.clip.frames.length;
      const sealed = await this.who.sealer.seal('video', frame.data, frame.key);
      if (!sealed || !this.video?.isOpen()) continue;
      if (frame.tid === 0) layer.tl0 = (layer.tl0 + 1) & 0xff;
      // Y (layer sync): in the pattern 0,2,1,2 frames 1 and 2 after a TL0 frame refer to TL0 only.
      const payloads = packetize(sealed, { pictureId: layer.pictureId, tl0PicIdx: layer.tl0, tid: frame.tid, layerSync: frame.tid > 0 && frame.sinceKey % 4 !== 3 });
      layer.pictureId = (layer.pictureId + 1) & 0x7fff;
      const ext = [{ id: EXT_MID, data: Buffer.from(this.videoMid()) }, ...(this.layers.length > 1 ? [{ id: EXT_RID, data: Buffer.from(layer.rid) }] : [])];
      payloads.forEach((payload, i) => {
        const packet = writeRtp({ payloadType: VP8_PT, sequence: layer.seq, timestamp: ts, ssrc: layer.ssrc, marker: i === payloads.length - 1, extensions: ext }, payload);
        layer.seq = (layer.seq + 1) & 0xffff;
        if (!this.send(this.video, packet)) return;
        this.stats.packetsSent += 1;
        this.stats.bytesSent += packet.length;
      });
      layer.framesSent += 1;
      if (frame.key) layer.keyFramesSent += 1;
    }
  }

  /**
   * Sends one RTP packet; false when the track closed meanwhile (libdatachannel closes it on its own thread, so a
   * frame sealed while the publisher was being closed can find it closed although it was open a moment before).
   */
  private send(track: Track | null, packet: Buffer): boolean {
    if (!track) return false;
    try {
      track.sendMessageBinary(packet);
      return true;
    } catch {
      return false;
    }
  }

  /** The mid of the published video in the publisher's own description (what a subscriber names to get it alone). */
  videoMid(): string {
    return this.video?.mid() ?? '0';
  }

  private async sendAudio(dueMs: number): Promise<void> {
    const a = this.audioState;
    const packet = this.opus[a.pos]!;
    a.pos = (a.pos + 1) % this.opus.length;
    const send = sendsFrame(packet.length, a.silentBefore);
    a.silentBefore = packet.length <= SILENT_FRAME_MAX_BYTES ? a.silentBefore + 1 : 0;
    if (!send) return;
    const sealed = await this.who.sealer.seal('audio', packet);
    if (!sealed || !this.audio?.isOpen()) return;
    const ts = (this.tsBase + Math.round(dueMs * 48)) >>> 0;
    const rtp = writeRtp({ payloadType: OPUS_PT, sequence: a.seq, timestamp: ts, ssrc: a.ssrc, marker: false, extensions: [{ id: EXT_MID, data: Buffer.from(this.audio.mid()) }] }, sealed);
    a.seq = (a.seq + 1) & 0xffff;
    if (!this.send(this.audio, rtp)) return;
    this.stats.packetsSent += 1;
    this.stats.bytesSent += rtp.length;
    a.sent += 1;
  }

  close(): void {
    for (const stop of this.stops.splice(0)) stop();
    try {
      this.pc?.close();
    } catch {
      /* already closed */
    }
    this.pc = null;
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(what)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
