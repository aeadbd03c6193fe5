import type { VideoLayers } from '@videomote/contract/identity';

/**
 * What this browser sends: a camera as VP8 simulcast, a screen share as one layer. Pure: janus.js gets the
 * encodings (`sendEncodings` on the camera's track, which turns on its rid-based simulcast).
 */

/** Used until config.json has answered, and by an older server that does not send them (the server's defaults). */
export const FALLBACK_VIDEO_LAYERS: VideoLayers = { lowKbps: 150, mediumKbps: 450, highKbps: 1_200, screenKbps: 1_500, screenFps: 10 };

/**
 * Three spatial layers (full, half, quarter of the captured size) with three temporal layers each (L1T3: a viewer
 * may get a half or a quarter of the frame rate). janus.js's own order and rids (h, m, l): Janus's substream 2 is
 * `h`. When the uplink is poor the browser's congestion control drops the top layers first.
 */
export function cameraEncodings(layers: VideoLayers): RTCRtpEncodingParameters[] {
  return [
    { rid: 'h', active: true, maxBitrate: layers.highKbps * 1000, scalabilityMode: 'L1T3' } as RTCRtpEncodingParameters,
    { rid: 'm', active: true, maxBitrate: layers.mediumKbps * 1000, scaleResolutionDownBy: 2, scalabilityMode: 'L1T3' } as RTCRtpEncodingParameters,
    { rid: 'l', active: true, maxBitrate: layers.lowKbps * 1000, scaleResolutionDownBy: 4, scalabilityMode: 'L1T3' } as RTCRtpEncodingParameters,
  ];
}

/** A screen share: one full-size layer, few frames per second (text, not motion). */
export function screenEncoding(layers: VideoLayers): { maxBitrate: number; maxFramerate: number } {
  return { maxBitrate: layers.screenKbps * 1000, maxFramerate: layers.screenFps };
}
