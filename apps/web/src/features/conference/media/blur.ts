/**
 * Background blur for the own camera (conference spec §4 Blur, §9 "high").
 *
 * What it is, honestly: no person segmentation. Each frame is drawn blurred (a strong Gaussian blur, radius 1/48
 * of the frame width) and a centred, soft-edged ellipse where a person at a laptop camera usually sits is drawn
 * sharp on top. The background outside that ellipse is what gets hidden. It runs on Chromium's insertable streams
 * (MediaStreamTrackProcessor / MediaStreamTrackGenerator) and an OffscreenCanvas; nothing is loaded from anywhere.
 * Where those are missing, the browser "does not support background processing" and the toggle is not offered.
 */
export const BLUR_KEY = 'useBlur';

interface ProcessorCtor {
  new (init: { track: MediaStreamTrack }): { readable: ReadableStream<VideoFrame> };
}
interface GeneratorCtor {
  new (init: { kind: 'video' }): MediaStreamTrack & { writable: WritableStream<VideoFrame> };
}
const globals = globalThis as unknown as { MediaStreamTrackProcessor?: ProcessorCtor; MediaStreamTrackGenerator?: GeneratorCtor; OffscreenCanvas?: typeof OffscreenCanvas };

export function blurSupported(): boolean {
  if (!globals.MediaStreamTrackProcessor || !globals.MediaStreamTrackGenerator || !globals.OffscreenCanvas) return false;
  try {
    const ctx = new OffscreenCanvas(1, 1).getContext('2d');
    return Boolean(ctx && 'filter' in ctx);
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
}

export function blurTrack(source: MediaStreamTrack): BlurredTrack {
  const processor = new globals.MediaStreamTrackProcessor!({ track: source });
  const generator = new globals.MediaStreamTrackGenerator!({ kind: 'video' });
  let canvas: OffscreenCanvas | null = null;
  let ctx: OffscreenCanvasRenderingContext2D | null = null;
  let stopped = false;
  const reader = processor.readable.getReader();
  const writer = generator.writable.getWriter();

  const draw = (frame: VideoFrame): VideoFrame => {
    const w = frame.displayWidth;
    const h = frame.displayHeight;
    if (!canvas || canvas.width !== w || canvas.height !== h) {
      canvas = new OffscreenCanvas(w, h);
      ctx = canvas.getContext('2d');
    }
    const c = ctx!;
    c.save();
    c.filter = `blur(${Math.max(8, Math.round(w / 48))}px)`;
    c.drawImage(frame, 0, 0, w, h);
    c.restore();
    // The sharp foreground: an ellipse over the middle (a head and shoulders in front of a laptop camera).
    c.save();
    c.beginPath();
    c.ellipse(w / 2, h * 0.55, w * 0.22, h * 0.48, 0, 0, Math.PI * 2);
    c.clip();
    c.drawImage(frame, 0, 0, w, h);
    c.restore();
    return new VideoFrame(canvas!, { timestamp: frame.timestamp });
  };

  void (async () => {
    try {
      for (;;) {
        const { value: frame, done } = await reader.read();
        if (done || !frame) break;
        if (stopped) {
          frame.close();
          break;
        }
        let out: VideoFrame;
        try {
          out = draw(frame);
        } finally {
          frame.close();
        }
        await writer.write(out);
      }
    } catch {
      /* the source ended or the generator was stopped */
    }
  })();

  return {
    track: generator,
    stop: () => {
      stopped = true;
      generator.stop();
      void reader.cancel().catch(() => {});
    },
  };
}
