/**
 * Probes run in a page (Playwright's evaluate) over every RTCPeerConnection the page made, as recorded by
 * e2e/support/peer-connections.ts's RECORD_PEER_CONNECTIONS: the same reading for the product's pages and the bare
 * janus.js pages, whatever either does with its connections. No named inner functions: tsx would wrap them in a
 * helper the page does not have.
 */

/** Resolves with performance.now() (ms since the page's navigation began) once `count` inbound video streams have decoded a frame. */
export const decodingVideosAt = async (count: number): Promise<number> => {
  for (;;) {
    let decoding = 0;
    for (const pc of (window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? []) {
      if (pc.connectionState === 'closed') continue;
      try {
        (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => {
          if (s.type === 'inbound-rtp' && s.kind === 'video' && (s.framesDecoded ?? 0) > 0) decoding += 1;
        });
      } catch {
        /* closed meanwhile */
      }
    }
    if (decoding >= count) return performance.now();
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Frames decoded so far per inbound video stream, keyed by connection and stats id. */
export const videoFramesByStream = async (): Promise<Record<string, number>> => {
  const out: Record<string, number> = {};
  const pcs = (window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? [];
  for (const [i, pc] of pcs.entries()) {
    if (pc.connectionState === 'closed') continue;
    try {
      (await pc.getStats()).forEach((s: { type: string; id: string; kind?: string; framesDecoded?: number }) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') out[`${i}/${s.id}`] = s.framesDecoded ?? 0;
      });
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
};

/** Inbound streams (audio and video) that have received packets: what the media server forwards to this page. */
export const receivedStreamCount = async (): Promise<number> => {
  let n = 0;
  for (const pc of (window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? []) {
    if (pc.connectionState === 'closed') continue;
    try {
      (await pc.getStats()).forEach((s: { type: string; packetsReceived?: number }) => {
        if (s.type === 'inbound-rtp' && (s.packetsReceived ?? 0) > 0) n += 1;
      });
    } catch {
      /* closed meanwhile */
    }
  }
  return n;
};

/** How many streams of `before` (a videoFramesByStream reading) decoded more since, counting new streams that decode. */
export function streamsGrown(before: Record<string, number>, now: Record<string, number>): number {
  return Object.entries(now).filter(([k, frames]) => frames > (before[k] ?? 0)).length;
}
