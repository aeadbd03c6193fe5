import { ImageSegmenter } from '@mediapipe/tasks-vision';
// Everything the segmenter loads is bundled by Vite and served from our own origin: no CDN, no runtime download.
// The module flavour of the loader sets globalThis.ModuleFactory when imported, which is what tasks-vision's
// loader falls back to in a module worker (where importScripts throws).
import wasmLoaderPath from '@mediapipe/tasks-vision/vision_wasm_module_internal.js?url';
import wasmBinaryPath from '@mediapipe/tasks-vision/vision_wasm_module_internal.wasm?url';
// MediaPipe's selfie segmentation model (landscape, 256x144 input). Twilio's package ships it with the TFLite
// metadata (input normalisation) that tasks-vision's ImageSegmenter requires; MediaPipe's own copy has none.
import modelAssetPath from '@twilio/video-processors/dist/build/selfie_segmentation_landscape.tflite?url';

/** The model's own input size: a frame is scaled to this before segmenting, so the mask comes back this size. */
export const MASK_WIDTH = 256;
export const MASK_HEIGHT = 144;

/** Person probability per pixel of a `width`×`height` image, row by row, 0 (background) … 1 (person). */
export interface PersonMask {
  width: number;
  height: number;
  data: Float32Array;
}

export interface PersonSegmenter {
  /** `timestampMs` must grow from call to call (the model smooths over time in video mode). */
  segment(image: OffscreenCanvas | HTMLCanvasElement | ImageBitmap, timestampMs: number): PersonMask;
  close(): void;
}

/**
 * Loads the WASM and the model and starts a segmenter in video mode. The CPU delegate (XNNPACK) runs without a
 * GPU; tasks-vision still needs a WebGL2 context to take images in, which is why blurSupported() asks for one.
 */
export async function createPersonSegmenter(): Promise<PersonSegmenter> {
  const segmenter = await ImageSegmenter.createFromOptions(
    { wasmLoaderPath, wasmBinaryPath },
    {
      baseOptions: { modelAssetPath, delegate: 'CPU' },
      runningMode: 'VIDEO',
      outputConfidenceMasks: true,
      outputCategoryMask: false,
    },
  );
  return {
    segment(image, timestampMs) {
      const out: { mask?: PersonMask } = {};
      segmenter.segmentForVideo(image, timestampMs, (result) => {
        const m = result.confidenceMasks?.[0];
        // The callback's masks are only valid inside it: copy out.
        if (m) out.mask = { width: m.width, height: m.height, data: m.getAsFloat32Array().slice() };
      });
      if (!out.mask) throw new Error('segmenter returned no mask');
      return out.mask;
    },
    close: () => segmenter.close(),
  };
}
