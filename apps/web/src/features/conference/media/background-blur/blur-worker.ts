import { BlurCompositor } from './blur-compositor.ts';
import { createPersonSegmenter, type PersonSegmenter } from './person-segmenter.ts';
import type { BlurWorkerReport, BlurWorkerStart } from './blur-protocol.ts';

/**
 * The blur pipeline off the main thread: camera frames come in through a transferred ReadableStream
 * (MediaStreamTrackProcessor), leave through a transferred WritableStream (MediaStreamTrackGenerator). The person
 * mask is renewed MASKS_PER_SECOND times a second (on the frame due then); every frame is composited with the
 * latest mask, so the sent video keeps the camera's frame rate while segmentation costs half as much.
 */
const MASKS_PER_SECOND = 15;
const SEGMENT_EVERY_MS = 1000 / MASKS_PER_SECOND;
/** Never two masks closer than this, however late the schedule runs (a burst after a stall). */
const MIN_GAP_MS = 30;
const REPORT_EVERY_MS = 2_000;

// The web app compiles against the DOM library only (DOM and WebWorker cannot be mixed): the little we use here.
interface WorkerScope {
  onmessage: ((event: MessageEvent<BlurWorkerStart>) => void) | null;
  postMessage(message: BlurWorkerReport): void;
  close(): void;
}
const scope = self as unknown as WorkerScope;
const post = (m: BlurWorkerReport) => scope.postMessage(m);

scope.onmessage = (event) => {
  const { readable, writable } = event.data;
  const compositor = new BlurCompositor();
  let segmenter: PersonSegmenter | null = null;
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    segmenter?.close();
    segmenter = null;
    post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  };

  const loadStarted = performance.now();
  createPersonSegmenter().then(
    (s) => {
      segmenter = s;
      post({ type: 'ready', loadMs: Math.round(performance.now() - loadStarted) });
    },
    fail,
  );

  let nextSegment = 0;
  let lastTimestamp = 0;
  let tally = { started: performance.now(), frames: 0, segmentations: 0, segmentMs: 0, composeMs: 0, coverage: 0 };

  const transform = new TransformStream<VideoFrame, VideoFrame>({
    transform(frame, controller) {
      try {
        const now = performance.now();
        if (segmenter && now >= nextSegment) {
          // Behind by more than a period (a stall): start the schedule afresh rather than catch up in a burst.
          const base = now - nextSegment > SEGMENT_EVERY_MS ? now : nextSegment;
          nextSegment = Math.max(base + SEGMENT_EVERY_MS, now + MIN_GAP_MS);
          lastTimestamp = Math.max(lastTimestamp + 1, Math.round(now));
          try {
            const mask = segmenter.segment(compositor.segmentationInput(frame), lastTimestamp);
            compositor.setMask(mask);
            tally.segmentations++;
            tally.coverage += mask.data.reduce((a, b) => a + b, 0) / mask.data.length;
          } catch (err) {
            fail(err);
          }
          tally.segmentMs += performance.now() - now;
        }
        const composeStarted = performance.now();
        const canvas = compositor.compose(frame);
        const out = new VideoFrame(canvas, { timestamp: frame.timestamp, alpha: 'discard' });
        tally.composeMs += performance.now() - composeStarted;
        tally.frames++;
        controller.enqueue(out);
      } finally {
        frame.close();
      }
      if (performance.now() - tally.started >= REPORT_EVERY_MS) {
        const w = tally;
        const seconds = (performance.now() - w.started) / 1000;
        post({
          type: 'stats',
          frames: w.frames,
          fps: w.frames / seconds,
          segmentations: w.segmentations,
          masksPerSecond: w.segmentations / seconds,
          segmentMs: w.segmentations ? w.segmentMs / w.segmentations : 0,
          composeMs: w.frames ? w.composeMs / w.frames : 0,
          personShare: w.segmentations ? w.coverage / w.segmentations : 0,
        });
        tally = { started: performance.now(), frames: 0, segmentations: 0, segmentMs: 0, composeMs: 0, coverage: 0 };
      }
    },
  });
  // Ends when the camera track ends or the main thread stops the generator; nothing to report then.
  readable.pipeThrough(transform).pipeTo(writable).catch(() => {}).finally(() => {
    segmenter?.close();
    scope.close();
  });
};
