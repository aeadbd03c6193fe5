import { MASK_HEIGHT, MASK_WIDTH, type PersonMask } from './person-segmenter.ts';

/**
 * Blur strength "high" (conference spec §9): the background is blurred with a radius of 1/40 of the frame width
 * (16 px at 640 wide, 32 px at 1280). It is blurred at a quarter of the size and scaled up, which costs a
 * sixteenth of the pixels and makes the blur even smoother.
 */
const RADIUS_OF_WIDTH = 1 / 40;
const SCALE = 4;

/** Below LOW the pixel is background, above HIGH person; a soft ramp between gives the edge. */
const LOW = 0.25;
const HIGH = 0.75;

type Ctx = OffscreenCanvasRenderingContext2D;

function context(canvas: OffscreenCanvas, alpha = true): Ctx {
  const ctx = canvas.getContext('2d', { alpha, desynchronized: true });
  if (!ctx) throw new Error('no 2d context');
  return ctx;
}

/**
 * Turns a camera frame and the latest person mask into the frame we send: the whole frame strongly blurred
 * behind, the person sharp in front. Until the first mask exists (the model is loading) everything is blurred:
 * someone who asked for a hidden background never sends it sharp, not even for a second.
 */
export class BlurCompositor {
  private width = 0;
  private height = 0;
  private out!: OffscreenCanvas;
  private outCtx!: Ctx;
  private small!: OffscreenCanvas;
  private smallCtx!: Ctx;
  private person!: OffscreenCanvas;
  private personCtx!: Ctx;
  private readonly input = new OffscreenCanvas(MASK_WIDTH, MASK_HEIGHT);
  private readonly inputCtx = context(this.input, false);
  private readonly mask = new OffscreenCanvas(MASK_WIDTH, MASK_HEIGHT);
  private readonly maskCtx = context(this.mask);
  private maskPixels: ImageData | null = null;
  private hasMask = false;

  /** The frame scaled to the model's input size (the mask comes back the same size). */
  segmentationInput(frame: CanvasImageSource): OffscreenCanvas {
    this.inputCtx.drawImage(frame, 0, 0, MASK_WIDTH, MASK_HEIGHT);
    return this.input;
  }

  setMask(mask: PersonMask): void {
    if (!this.maskPixels || this.maskPixels.width !== mask.width || this.maskPixels.height !== mask.height) {
      if (this.mask.width !== mask.width || this.mask.height !== mask.height) {
        this.mask.width = mask.width;
        this.mask.height = mask.height;
      }
      this.maskPixels = new ImageData(mask.width, mask.height);
      this.maskPixels.data.fill(255);
    }
    const px = this.maskPixels.data;
    const p = mask.data;
    for (let i = 0; i < p.length; i++) {
      const a = (p[i]! - LOW) / (HIGH - LOW);
      px[i * 4 + 3] = a <= 0 ? 0 : a >= 1 ? 255 : a * 255;
    }
    this.maskCtx.putImageData(this.maskPixels, 0, 0);
    this.hasMask = true;
  }

  compose(frame: VideoFrame): OffscreenCanvas {
    const w = frame.displayWidth;
    const h = frame.displayHeight;
    if (w !== this.width || h !== this.height) this.resize(w, h);

    // Background: blurred at a quarter size. Drawn a little larger than the canvas so the blur has real pixels
    // to pull in at the borders instead of transparent ones (which would darken the edges).
    const sw = this.small.width;
    const sh = this.small.height;
    const r = Math.max(2, Math.round((w * RADIUS_OF_WIDTH) / SCALE));
    this.smallCtx.filter = `blur(${r}px)`;
    this.smallCtx.drawImage(frame, -2 * r, -2 * r, sw + 4 * r, sh + 4 * r);
    this.smallCtx.filter = 'none';
    this.outCtx.globalCompositeOperation = 'copy';
    this.outCtx.drawImage(this.small, 0, 0, w, h);

    if (this.hasMask) {
      // Person: the mask scaled up (smoothing softens its edge), then the sharp frame kept only where it is.
      this.personCtx.globalCompositeOperation = 'copy';
      this.personCtx.drawImage(this.mask, 0, 0, w, h);
      this.personCtx.globalCompositeOperation = 'source-in';
      this.personCtx.drawImage(frame, 0, 0, w, h);
      this.outCtx.globalCompositeOperation = 'source-over';
      this.outCtx.drawImage(this.person, 0, 0);
    }
    return this.out;
  }

  private resize(w: number, h: number): void {
    this.width = w;
    this.height = h;
    this.out = new OffscreenCanvas(w, h);
    this.outCtx = context(this.out, false);
    this.small = new OffscreenCanvas(Math.max(1, Math.round(w / SCALE)), Math.max(1, Math.round(h / SCALE)));
    this.smallCtx = context(this.small, false);
    this.person = new OffscreenCanvas(w, h);
    this.personCtx = context(this.person);
    for (const c of [this.outCtx, this.smallCtx, this.personCtx]) c.imageSmoothingQuality = 'high';
  }
}
