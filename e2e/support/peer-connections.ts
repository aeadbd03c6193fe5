/**
 * Media read from RTCPeerConnection.getStats over every connection a page makes, the same way in Chromium and
 * Firefox, without knowing how the app arranges its connections (one per stream or one for all, encrypted or not):
 * a script that runs before the app's own keeps each new RTCPeerConnection on `window.__peerConnections`.
 */
export const RECORD_PEER_CONNECTIONS = `(() => {
  const Native = window.RTCPeerConnection;
  if (!Native || window.__peerConnections) return;
  const all = [];
  window.__peerConnections = all;
  const Recording = new Proxy(Native, {
    construct(target, args, newTarget) {
      const pc = Reflect.construct(target, args, newTarget === Recording ? target : newTarget);
      all.push(pc);
      return pc;
    },
  });
  window.RTCPeerConnection = Recording;
})();`;

/** Media totals over a page's open peer connections. */
export interface MediaTotals {
  /** Video frames decoded, over every inbound video stream. */
  framesDecoded: number;
  /** Inbound video streams that have decoded a frame (a camera and a screen share are two). */
  decodingVideoStreams: number;
  audioPacketsReceived: number;
  framesEncoded: number;
  audioPacketsSent: number;
}

/** Runs in the page (Playwright's and puppeteer's evaluate alike). */
export const mediaTotalsInPage = async (): Promise<MediaTotals> => {
  const pcs = (window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? [];
  const t = { framesDecoded: 0, decodingVideoStreams: 0, audioPacketsReceived: 0, framesEncoded: 0, audioPacketsSent: 0 };
  for (const pc of pcs) {
    let report: RTCStatsReport;
    try {
      report = await pc.getStats(); // a closed connection throws (Firefox at once, Chromium as a rejection)
    } catch {
      continue;
    }
    report.forEach((s: { type: string; kind?: string; framesDecoded?: number; framesEncoded?: number; packetsReceived?: number; packetsSent?: number }) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video') {
        t.framesDecoded += s.framesDecoded ?? 0;
        if ((s.framesDecoded ?? 0) > 0) t.decodingVideoStreams += 1;
      }
      if (s.type === 'inbound-rtp' && s.kind === 'audio') t.audioPacketsReceived += s.packetsReceived ?? 0;
      if (s.type === 'outbound-rtp' && s.kind === 'video') t.framesEncoded += s.framesEncoded ?? 0;
      if (s.type === 'outbound-rtp' && s.kind === 'audio') t.audioPacketsSent += s.packetsSent ?? 0;
    });
  }
  return t;
};

/**
 * Media flows both ways: a first sample, then a later one with more video decoded and encoded and more audio
 * packets received and sent (every counter growing, so neither side has stalled). Resolves with the later sample.
 */
export async function mediaKeepsFlowing(sample: () => Promise<MediaTotals>, what: { send: boolean; videoStreams: number }, timeout = 45_000): Promise<MediaTotals> {
  const deadline = Date.now() + timeout;
  let last = await sample();
  let now = last;
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_000));
    now = await sample();
    const received = now.framesDecoded > last.framesDecoded && now.audioPacketsReceived > last.audioPacketsReceived && now.decodingVideoStreams >= what.videoStreams;
    const sent = !what.send || (now.framesEncoded > last.framesEncoded && now.audioPacketsSent > last.audioPacketsSent);
    if (received && sent) return now;
    if (Date.now() > deadline) throw new Error(`media did not keep flowing: before ${JSON.stringify(last)}, after ${JSON.stringify(now)}`);
    last = now;
  }
}
