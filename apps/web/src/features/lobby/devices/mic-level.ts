/**
 * Microphone level 0-100 from an AnalyserNode's time-domain bytes (128 = silence): the RMS amplitude, scaled so
 * that normal speech fills most of the bar. Spec §4: the microphone works when the rounded level is above zero.
 */
export function levelFromSamples(samples: Uint8Array): number {
  if (!samples.length) return 0;
  let sum = 0;
  for (const s of samples) {
    const v = (s - 128) / 128;
    sum += v * v;
  }
  const rms = Math.sqrt(sum / samples.length);
  return Math.min(100, rms * 300);
}

export const microphoneWorks = (level: number) => Math.round(level) > 0;

/** Feeds the level of a live audio track to `onLevel` on every animation frame until stopped. */
export class MicLevelMeter {
  private context: AudioContext | null = null;
  private frame = 0;
  private readonly resumeOnGesture = () => void this.context?.resume();

  start(stream: MediaStream, onLevel: (level: number) => void): void {
    this.stop();
    const context = new AudioContext();
    this.context = context;
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    // Browsers may start an AudioContext suspended until the person interacts with the page.
    void context.resume();
    document.addEventListener('pointerdown', this.resumeOnGesture);
    document.addEventListener('keydown', this.resumeOnGesture);
    const tick = () => {
      analyser.getByteTimeDomainData(samples);
      onLevel(levelFromSamples(samples));
      this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  stop(): void {
    cancelAnimationFrame(this.frame);
    document.removeEventListener('pointerdown', this.resumeOnGesture);
    document.removeEventListener('keydown', this.resumeOnGesture);
    void this.context?.close().catch(() => {});
    this.context = null;
  }
}
