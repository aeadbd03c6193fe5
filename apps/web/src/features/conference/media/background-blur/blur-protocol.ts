/** Messages between the main thread and the blur worker. */
export interface BlurWorkerStart {
  readable: ReadableStream<VideoFrame>;
  writable: WritableStream<VideoFrame>;
}

/** Figures over the last ~2 s: frames sent, their rate, masks made and the mean time of each step (ms). */
export interface BlurStats {
  frames: number;
  fps: number;
  segmentations: number;
  masksPerSecond: number;
  segmentMs: number;
  composeMs: number;
  /** Mean person probability over the masks: 0 when the model sees nobody. */
  personShare: number;
}

export type BlurWorkerReport = { type: 'ready'; loadMs: number } | { type: 'failed'; message: string } | ({ type: 'stats' } & BlurStats);
