import type { E2eeCounts, E2eeWorkerMessage, TransformOptions } from './e2ee-protocol.ts';
import type { MediaKind } from '@videomote/contract/frame-crypto';

/**
 * End-to-end encryption of the call's media (conference spec §9): every frame a sender encodes is encrypted with
 * the meeting's key before it leaves the browser, and every frame a receiver gets is decrypted before decoding,
 * in encoded transforms (RTCRtpScriptTransform, one worker for all). Janus forwards ciphertext it cannot read.
 *
 * The media client's whole use of it, so that it survives rewrites of the client: `protect(pc)` where a sender
 * is created (janus.js `onlocaltrack`, before it creates the offer) and where a remote track arrives (`onremotetrack`,
 * while the offer is applied, before the answer is created), `declare(jsep)` on each offer or answer sent to Janus,
 * and `setKey` whenever the server hands a key. The moment matters: measured in Chromium 156, a transform set
 * after createOffer (sender) or createAnswer (receiver) is accepted and silently bypassed, every frame then going
 * out, or in, unencrypted. A transform belongs to its RTCRtpSender, so replaceTrack (device switch, blur on or
 * off) keeps encrypting.
 */
export class MediaE2ee {
  private readonly worker: Worker | null;
  private readonly protectedOnes = new WeakSet<RTCRtpSender | RTCRtpReceiver>();

  constructor() {
    this.worker = e2eeSupported() ? new Worker(new URL('./e2ee-worker.ts', import.meta.url), { type: 'module', name: 'media-e2ee' }) : null;
  }

  /** Whether this browser encrypts end to end (it has encoded transforms in workers). */
  get supported(): boolean {
    return this.worker !== null;
  }

  setKey(epoch: number, key: string): void {
    this.worker?.postMessage({ type: 'key', epoch, key } satisfies E2eeWorkerMessage);
  }

  /** Whether the meeting's media is end-to-end encrypted now, as the server says (false: plain frames both ways). */
  setEndToEnd(endToEnd: boolean): void {
    this.worker?.postMessage({ type: 'endToEnd', endToEnd } satisfies E2eeWorkerMessage);
  }

  /**
   * Tells Janus the media of this description is end-to-end encrypted (janus.js passes `jsep.e2ee` on). The
   * meeting's room requires it: Janus refuses a publisher that does not say so. A browser without encoded
   * transforms says so too, to be let in; the server has then put the meeting into transit-only mode, in which
   * every browser sends plain frames, so Janus's rule of one kind of feed per room still holds.
   */
  declare<T extends object>(jsep: T): T & { e2ee: true } {
    return Object.assign(jsep, { e2ee: true as const });
  }

  /** Puts the transform on every sender and receiver of the connection that has none yet (idempotent). */
  protect(pc: RTCPeerConnection | null | undefined): void {
    if (!pc || !this.worker) return;
    for (const t of pc.getTransceivers()) {
      const kind = t.receiver.track.kind as MediaKind;
      if (kind !== 'audio' && kind !== 'video') continue;
      this.attach(t.sender, { operation: 'encrypt', kind });
      this.attach(t.receiver, { operation: 'decrypt', kind });
    }
  }

  private attach(target: RTCRtpSender | RTCRtpReceiver, options: TransformOptions): void {
    if (this.protectedOnes.has(target)) return;
    this.protectedOnes.add(target);
    target.transform = new RTCRtpScriptTransform(this.worker!, options);
  }

  /** Frames encrypted, decrypted and dropped so far (browser tests). */
  counts(): Promise<E2eeCounts | null> {
    const worker = this.worker;
    if (!worker) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onMessage = (event: MessageEvent<{ type: string } & E2eeCounts>) => {
        if (event.data.type !== 'counts') return;
        worker.removeEventListener('message', onMessage);
        const { encrypted, decrypted, failed, unsent, plainSent, plainReceived, epoch } = event.data;
        resolve({ encrypted, decrypted, failed, unsent, plainSent, plainReceived, epoch });
      };
      worker.addEventListener('message', onMessage);
      worker.postMessage({ type: 'counts' });
    });
  }

  /**
   * How much the queue on this page's downlink grew lately, in ms (model/queue-delay.ts), from the voice frames the
   * worker decrypted; null when it cannot say (no worker, silent voices, or no answer within QUEUE_GROWTH_WAIT_MS).
   */
  queueGrowth(): Promise<number | null> {
    const worker = this.worker;
    if (!worker) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (ms: number | null) => {
        clearTimeout(timer);
        worker.removeEventListener('message', onMessage);
        resolve(ms);
      };
      const onMessage = (event: MessageEvent<{ type: string; ms?: number | null }>) => {
        if (event.data.type === 'queueGrowth') done(event.data.ms ?? null);
      };
      // A worker held up (or terminated) must not hold the layer choice up with it.
      const timer = setTimeout(() => done(null), QUEUE_GROWTH_WAIT_MS);
      worker.addEventListener('message', onMessage);
      worker.postMessage({ type: 'queueGrowth' });
    });
  }

  close(): void {
    this.worker?.terminate();
    if (inUse === this) inUse = null;
  }
}

const QUEUE_GROWTH_WAIT_MS = 250;

/**
 * One made ahead, while the person is still in the lobby (or the meeting screen's code loads): starting its worker
 * held the main thread for 46 ms in the media bench's joins, between gettoken's answer and the `/media` socket. The
 * next session takes it; a fresh worker holds no key until the session hands one. None is made while a session's is
 * in use: a meeting screen opened directly may load its code after its call has started, and a worker made then
 * would wait idle for a next call.
 */
let prepared: MediaE2ee | null = null;
let inUse: MediaE2ee | null = null;

export function prepareMediaE2ee(): void {
  if (!inUse) prepared ??= new MediaE2ee();
}

/** The one made ahead if there is one (each is taken once), else a new one; in use until its `close()`. */
export function takeMediaE2ee(): MediaE2ee {
  const e2ee = prepared ?? new MediaE2ee();
  prepared = null;
  inUse = e2ee;
  return e2ee;
}

export function e2eeSupported(): boolean {
  return typeof RTCRtpScriptTransform !== 'undefined' && typeof Worker !== 'undefined' && typeof crypto?.subtle !== 'undefined';
}
