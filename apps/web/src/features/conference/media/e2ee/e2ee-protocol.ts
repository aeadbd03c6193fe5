import type { MediaKind } from '@videomote/contract/frame-crypto';

/** What each encoded transform does, given as the RTCRtpScriptTransform's options. */
export interface TransformOptions {
  operation: 'encrypt' | 'decrypt';
  kind: MediaKind;
}

/** Main thread → worker. The key travels only here, never into a log or the DOM. */
export type E2eeWorkerMessage =
  | { type: 'key'; epoch: number; key: string }
  /** The meeting's protection now: false while a browser without encoded transforms is in it (frames go plain). */
  | { type: 'endToEnd'; endToEnd: boolean };

/** Worker → main thread, on request: frames handled since the start, for the browser tests. */
export interface E2eeCounts {
  encrypted: number;
  decrypted: number;
  /** Frames dropped because they did not open (wrong or unknown key, changed bytes). */
  failed: number;
  /** Frames dropped at the sender because no key was there yet. */
  unsent: number;
  /** Frames sent and received unencrypted by us while the meeting was transit-only (DTLS-SRTP still protects them). */
  plainSent: number;
  plainReceived: number;
  /** The epoch of the key frames are sent with now (0: none yet). */
  epoch: number;
}
