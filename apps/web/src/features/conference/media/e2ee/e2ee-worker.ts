import { clearByteCount, encryptFrame, importMediaKey, KeyRing, receiveFrame } from '@videomote/contract/frame-crypto';
import type { E2eeCounts, E2eeWorkerMessage, TransformOptions } from './e2ee-protocol.ts';
import { passFrames } from './frame-pipe.ts';
import { QueueDelay } from '../../model/queue-delay.ts';

/**
 * The encoded transforms of every sender and receiver of the page (RTCRtpScriptTransform), off the main thread.
 * A frame that cannot be encrypted (no key yet) is not sent and one that does not open is not decoded: neither
 * plain media to Janus nor unauthenticated media to the decoder, while the meeting is end-to-end encrypted. Only
 * when the server says it is not (a browser without encoded transforms is in the meeting, see `mediaProtection`)
 * do frames go out as they are and plain frames come in.
 */

// The web app compiles against the DOM library only (DOM and WebWorker cannot be mixed): the little we use here.
interface EncodedFrame {
  data: ArrayBuffer;
  type?: string;
  /** An audio frame's RTP timestamp (Chromium; the metadata's rtpTimestamp where there is one). */
  timestamp?: number;
  getMetadata?(): { synchronizationSource?: number; rtpTimestamp?: number };
}
interface RtcTransformer {
  readable: ReadableStream<EncodedFrame>;
  writable: WritableStream<EncodedFrame>;
  options: TransformOptions;
}
interface WorkerScope {
  onmessage: ((event: MessageEvent<E2eeWorkerMessage | { type: 'counts' } | { type: 'queueGrowth' }>) => void) | null;
  onrtctransform: ((event: { transformer: RtcTransformer }) => void) | null;
  postMessage(message: ({ type: 'counts' } & E2eeCounts) | { type: 'queueGrowth'; ms: number | null }): void;
}
const scope = self as unknown as WorkerScope;

const ring = new KeyRing();
const counts: Omit<E2eeCounts, 'epoch'> = { encrypted: 0, decrypted: 0, failed: 0, unsent: 0, plainSent: 0, plainReceived: 0 };
let endToEnd = true;
/** Every received voice frame passes here as it arrives: the downlink's queue shows in their delays (queue-delay.ts). */
const queue = new QueueDelay();

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === 'counts') return scope.postMessage({ type: 'counts', ...counts, epoch: ring.current?.epoch ?? 0 });
  if (message.type === 'queueGrowth') return scope.postMessage({ type: 'queueGrowth', ms: queue.growth(performance.now()) });
  if (message.type === 'endToEnd') endToEnd = message.endToEnd;
  if (message.type === 'key') {
    const { epoch } = message;
    void importMediaKey(message.key).then((key) => ring.add({ epoch, key }));
  }
};

scope.onrtctransform = ({ transformer }) => {
  const { kind, operation } = transformer.options;
  const handle =
    operation === 'encrypt'
      ? async (frame: EncodedFrame): Promise<EncodedFrame | null> => {
          const key = ring.current;
          if (frame.data.byteLength === 0) return frame;
          if (!endToEnd) {
            counts.plainSent += 1;
            return frame;
          }
          if (!key) {
            counts.unsent += 1;
            return null;
          }
          frame.data = await encryptFrame(frame.data, clearByteCount(kind, frame.type), key);
          counts.encrypted += 1;
          return frame;
        }
      : async (frame: EncodedFrame): Promise<EncodedFrame | null> => {
          if (kind === 'audio') noteArrival(frame);
          if (frame.data.byteLength === 0) return frame;
          const received = await receiveFrame(frame.data, clearByteCount(kind, frame.type), ring, endToEnd);
          if (!received) {
            counts.failed += 1;
            return null;
          }
          frame.data = received.data;
          if (received.opened === 'decrypted') counts.decrypted += 1;
          else counts.plainReceived += 1;
          return frame;
        };
  passFrames(transformer, handle).catch(() => {
    /* the sender or receiver went away */
  });
};

function noteArrival(frame: EncodedFrame): void {
  const meta = frame.getMetadata?.();
  const rtp = meta?.rtpTimestamp ?? frame.timestamp;
  if (typeof rtp === 'number' && typeof meta?.synchronizationSource === 'number') queue.frame(meta.synchronizationSource, rtp, performance.now());
}
