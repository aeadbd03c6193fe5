import type { BlurStats, BlurWorkerReport, BlurWorkerStart } from './blur-protocol.ts';

/**
 * Background blur for the own camera (conference spec §4 Blur, §9 "high"), with real person segmentation:
 * camera frames go through Chromium's insertable streams (MediaStreamTrackProcessor → a worker →
 * MediaStreamTrackGenerator). The worker segments the person (MediaPipe's selfie segmentation model in
 * tasks-vision's WASM, both served from our origin and loaded only when blur is turned on) and sends the frame
 * with the background strongly blurred. The generator's track is what the publisher sends (replaceTrack, no
 * renegotiation).
 *
 * Why insertable streams rather than <video> + canvas.captureStream(): they are driven by the camera's frames,
 * not by rendering, so the sent video does not freeze when the tab is hidden (timers and requestAnimationFrame
 * are throttled there), and the work stays off the main thread. Where they are missing (Firefox, Safari), the
 * browser "does not support background processing" and the toggle is not offered.
 */
export const BLUR_KEY = 'useBlur';

interface ProcessorCtor {
  new (init: { track: MediaStreamTrack }): { readable: ReadableStream<VideoFrame> };
}
interface GeneratorCtor {
  new (init: { kind: 'video' }): MediaStreamTrack & { writable: WritableStream<VideoFrame> };
}
const globals = globalThis as unknown as {
  MediaStreamTrackProcessor?: ProcessorCtor;
  MediaStreamTrackGenerator?: GeneratorCtor;
  OffscreenCanvas?: typeof OffscreenCanvas;
  VideoFrame?: typeof VideoFrame;
  WebAssembly?: unknown;
  Worker?: typeof Worker;
};

let supported: boolean | undefined;

/** Insertable streams, a worker, WebAssembly, a 2D canvas with filters, and WebGL2 (tasks-vision takes images in through it). */
export function blurSupported(): boolean {
  supported ??= probe();
  return supported;
}

function probe(): boolean {
  if (!globals.MediaStreamTrackProcessor || !globals.MediaStreamTrackGenerator || !globals.OffscreenCanvas) return false;
  if (!globals.VideoFrame || !globals.WebAssembly || !globals.Worker) return false;
  try {
    const ctx = new OffscreenCanvas(1, 1).getContext('2d');
    if (!ctx || !('filter' in ctx)) return false;
    const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
    if (!gl) return false;
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return true;
  } catch {
    return false;
  }
}

/** The stored choice ('true'/'false' as a string, spec §3). */
export function readBlurChoice(): boolean {
  try {
    return localStorage.getItem(BLUR_KEY) === 'true';
  } catch {
    return false;
  }
}

export function storeBlurChoice(on: boolean): void {
  try {
    localStorage.setItem(BLUR_KEY, String(on));
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/** A blurred copy of `source`; `stop()` ends it (not the source, which the caller owns). */
export interface BlurredTrack {
  track: MediaStreamTrack;
  stop(): void;
  /** How long the model took to load (ms), once it has; the worker's latest figures. For tests and benches. */
  report(): { loadMs: number | null; stats: BlurStats | null };
}

/**
 * Starts blurring at once: until the model has loaded, every frame is blurred whole (nothing sharp is sent).
 * `onFailure` is called if the model or its WASM cannot be loaded or run; the caller then goes back to the camera.
 */
export function blurTrack(source: MediaStreamTrack, onFailure: (message: string) => void): BlurredTrack {
  const processor = new globals.MediaStreamTrackProcessor!({ track: source });
  const generator = new globals.MediaStreamTrackGenerator!({ kind: 'video' });
  const worker = new Worker(new URL('./blur-worker.ts', import.meta.url), { type: 'module', name: 'background-blur' });
  let stopped = false;
  let loadMs: number | null = null;
  let stats: BlurStats | null = null;
  const failed = (message: string) => {
    if (!stopped) onFailure(message);
  };
  worker.onmessage = (event: MessageEvent<BlurWorkerReport>) => {
    const m = event.data;
    if (m.type === 'ready') loadMs = m.loadMs;
    else if (m.type === 'failed') failed(m.message);
    else stats = m;
  };
  // The worker's own script could not be loaded or threw at start-up.
  worker.onerror = (event) => {
    event.preventDefault();
    failed(event.message || 'blur worker failed');
  };
  const start: BlurWorkerStart = { readable: processor.readable, writable: generator.writable };
  worker.postMessage(start, [processor.readable, generator.writable]);

  return {
    track: generator,
    stop: () => {
      if (stopped) return;
      stopped = true;
      // Ending the generator ends the worker's pipe, which releases the camera frames and closes the worker;
      // terminate anyway in case it is stuck loading.
      generator.stop();
      setTimeout(() => worker.terminate(), 1_000);
    },
    report: () => ({ loadMs, stats }),
  };
}
