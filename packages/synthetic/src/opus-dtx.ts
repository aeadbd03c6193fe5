/**
 * Opus discontinuous transmission as the web app's publishers send it (they offer `usedtx=1`,
 * apps/web/src/features/conference/model/opus-dtx.ts): while the microphone hears silence the browser sends one frame
 * every 400 ms instead of one every 20 ms. Without it three synthetic voices sounded all the time, three people talking
 * at once for the whole call, which a 500 kbit/s link cannot carry beside an interpreter and a screen share.
 */

/** The clip's silence: libopus encodes a silent 20 ms frame in 3 bytes (TOC and padding), a sounding one in 60+. */
export const SILENT_FRAME_MAX_BYTES = 3;
/** One silent frame in this many is sent: every 400 ms at 20 ms a frame, as WebRTC's Opus DTX keeps the stream alive. */
export const DTX_KEEPALIVE_EVERY = 20;

/** Whether to send this frame, given how many silent frames came right before it (0 after a sounding one). */
export function sendsFrame(frameBytes: number, silentBefore: number): boolean {
  if (frameBytes > SILENT_FRAME_MAX_BYTES) return true;
  return silentBefore % DTX_KEEPALIVE_EVERY === 0;
}
