/**
 * Probes run in a page (Playwright's evaluate) over every RTCPeerConnection the page made, as recorded by
 * e2e/support/peer-connections.ts's RECORD_PEER_CONNECTIONS: the same reading for the product's pages and the bare
 * janus.js pages, whatever either does with its connections. No named inner functions: tsx would wrap them in a
 * helper the page does not have.
 */

/** Resolves with performance.now() (ms since the page's navigation began) once `count` inbound video streams have decoded a frame. */
export const decodingVideosAt = async (count: number): Promise<number> => {
  // Each video's first packet, frame and decoded frame go into the join's ladder (joinLadder), where it is recorded.
  const log = (window as unknown as { __timeline?: { log: [number, string][] } }).__timeline?.log;
  const seen = new Set<string>();
  for (;;) {
    let decoding = 0;
    for (const [i, pc] of ((window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? []).entries()) {
      if (pc.connectionState === 'closed') continue;
      try {
        (await pc.getStats()).forEach((s: { type: string; kind?: string; mid?: string; framesDecoded?: number; framesReceived?: number; packetsReceived?: number; pliCount?: number }) => {
          if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
          // No helper function here: the bundler would wrap it in a name helper the page does not have.
          const name = `pc${i + 1} video mid ${s.mid}`;
          for (const [reached, what] of [
            [(s.packetsReceived ?? 0) > 0, 'first packets'],
            [(s.framesReceived ?? 0) > 0, 'first frame received'],
            [(s.framesDecoded ?? 0) > 0, `first frame decoded (PLIs sent ${s.pliCount ?? 0})`],
          ] as const) {
            const key = `${name} ${what.split(' (')[0]}`;
            if (!reached || seen.has(key)) continue;
            seen.add(key);
            log?.push([performance.now(), `${name}: ${what}`]);
          }
          if ((s.framesDecoded ?? 0) > 0) decoding += 1;
        });
      } catch {
        /* closed meanwhile */
      }
    }
    // The first remote video on screen, for firstVideoDecodedAt.
    const w = window as unknown as { __firstVideoDecodedAt?: number };
    if (decoding > 0) w.__firstVideoDecodedAt ??= performance.now();
    if (decoding >= count) return performance.now();
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** performance.now() when decodingVideosAt first saw a remote video decoding on this page (NaN: not yet). */
export const firstVideoDecodedAt = (): number => (window as unknown as { __firstVideoDecodedAt?: number }).__firstVideoDecodedAt ?? NaN;

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

/**
 * Per inbound video stream (keyed as videoFramesByStream): frames decoded, key frames decoded, key frames asked
 * for (PLI and FIR), packets lost and NACKs sent so far. Read before and after a cut, to tell a stream waiting for a
 * key frame from one the page turned down or off.
 */
export const videoRecoveryCounters = async (): Promise<Record<string, { frames: number; keyFrames: number; asked: number; lost: number; nacks: number }>> => {
  const out: Record<string, { frames: number; keyFrames: number; asked: number; lost: number; nacks: number }> = {};
  const pcs = (window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? [];
  for (const [i, pc] of pcs.entries()) {
    if (pc.connectionState === 'closed') continue;
    try {
      (await pc.getStats()).forEach((s: { type: string; id: string; kind?: string; framesDecoded?: number; keyFramesDecoded?: number; pliCount?: number; firCount?: number; packetsLost?: number; nackCount?: number }) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
        out[`${i}/${s.id}`] = { frames: s.framesDecoded ?? 0, keyFrames: s.keyFramesDecoded ?? 0, asked: (s.pliCount ?? 0) + (s.firCount ?? 0), lost: s.packetsLost ?? 0, nacks: s.nackCount ?? 0 };
      });
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
};

/** The product page's downlink cut (rungs taken off) and layers received, as one line; null on a bare page. */
export const layerState = (): string | null => {
  const hook = (window as unknown as { __videomoteTest?: { session: { videoLayers?: { cut: number } }; model: { getState(): { videoLayers: Record<string, { off: string | null; substream: number | null; temporal: number | null }> } } } }).__videomoteTest;
  if (!hook) return null;
  const layers = Object.values(hook.model.getState().videoLayers)
    .map((v) => (v.off ? `off:${v.off}` : `${v.substream ?? '?'}/${v.temporal ?? '?'}`))
    .join(',');
  return `cut ${hook.session.videoLayers?.cut ?? '?'}: ${layers}`;
};

/**
 * Over every inbound stream (audio and video): how many have received packets (what the media server forwards to
 * this page), and the bytes received so far (RTP payload and headers, as getStats counts them).
 */
export const inboundTotals = async (): Promise<{ streams: number; bytes: number }> => {
  const t = { streams: 0, bytes: 0 };
  for (const pc of (window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? []) {
    if (pc.connectionState === 'closed') continue;
    try {
      (await pc.getStats()).forEach((s: { type: string; packetsReceived?: number; bytesReceived?: number }) => {
        if (s.type !== 'inbound-rtp') return;
        if ((s.packetsReceived ?? 0) > 0) t.streams += 1;
        t.bytes += s.bytesReceived ?? 0;
      });
    } catch {
      /* closed meanwhile */
    }
  }
  return t;
};

/** The product page's layer per received video ("2", "0", "off:bandwidth"), or null on a page without the test hook. */
export const receivedLayers = (): string | null => {
  const hook = (window as unknown as { __videomoteTest?: { model: { getState(): { videoLayers: Record<string, { off: string | null; substream: number | null }> } } } }).__videomoteTest;
  if (!hook) return null;
  return Object.values(hook.model.getState().videoLayers)
    .map((v) => (v.off ? `off:${v.off}` : String(v.substream ?? '?')))
    .join(',');
};

/**
 * What the page's camera was asked for and made so far: key-frame requests received (PLI and FIR, all simulcast
 * encodings together) and key frames encoded. A key frame is several times a normal frame: each one the cameras
 * make when somebody joins costs every viewer's downlink. With them, what the page saw as a viewer (below).
 */
export const keyFrameTotals = async (): Promise<{ requests: number; keyFrames: number; viewerRequests: number; configures: number; lost: number; dropped: number; freezes: number; unopened: number; connectionsMade: number; iceDown: number; resumes: number }> => {
  const timeline = (window as unknown as { __timeline?: { sent: Record<string, number>; pcs: unknown[]; iceDown: number } }).__timeline;
  const sent = timeline?.sent ?? {};
  // Where requests come from: this page's own receivers asking (a lost or undecodable frame), and the `configure`
  // messages it sent Janus (a subscriber's layer switch makes Janus ask the camera too); with them, the packets its
  // receivers lost, the frames they dropped and the freezes they saw, the frames that did not open (the product's
  // end-to-end encryption), the connections it made, its connections' ICE going disconnected or failed, and the
  // product's `/media` socket taken as dead and resumed.
  const hook = (window as unknown as { __videomoteTest?: { session: { resumes: number; e2ee: { counts(): Promise<{ failed: number } | null> } } } }).__videomoteTest;
  const e2ee = hook ? await hook.session.e2ee.counts().catch(() => null) : null;
  const t = {
    requests: 0,
    keyFrames: 0,
    viewerRequests: 0,
    configures: Object.entries(sent).filter(([k]) => / configure/.test(k)).reduce((n, [, c]) => n + c, 0),
    lost: 0,
    dropped: 0,
    freezes: 0,
    unopened: e2ee?.failed ?? 0,
    connectionsMade: timeline?.pcs.length ?? 0,
    iceDown: timeline?.iceDown ?? 0,
    resumes: hook?.session.resumes ?? 0,
  };
  for (const pc of (window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? []) {
    if (pc.connectionState === 'closed') continue;
    try {
      (await pc.getStats()).forEach((s: { type: string; kind?: string; pliCount?: number; firCount?: number; keyFramesEncoded?: number; packetsLost?: number; framesDropped?: number; freezeCount?: number }) => {
        if (s.kind !== 'video') return;
        if (s.type === 'inbound-rtp') {
          t.viewerRequests += (s.pliCount ?? 0) + (s.firCount ?? 0);
          t.lost += s.packetsLost ?? 0;
          t.dropped += s.framesDropped ?? 0;
          t.freezes += s.freezeCount ?? 0;
        }
        if (s.type !== 'outbound-rtp') return;
        t.requests += (s.pliCount ?? 0) + (s.firCount ?? 0);
        t.keyFrames += s.keyFramesEncoded ?? 0;
      });
    } catch {
      /* closed meanwhile */
    }
  }
  return t;
};

/** How many streams of `before` (a videoFramesByStream reading) decoded more since, counting new streams that decode. */
export function streamsGrown(before: Record<string, number>, now: Record<string, number>): number {
  return Object.entries(now).filter(([k, frames]) => frames > (before[k] ?? 0)).length;
}

/**
 * Added before any page script (after RECORD_PEER_CONNECTIONS): when each WebSocket opened, and when each
 * RTCPeerConnection was made, got its remote description and connected, in performance.now() time. Read with
 * `joinTimeline`, to show where a join's time goes. It also keeps a ladder of the join (`joinLadder`): every
 * message on the sockets (Janus's request or event, the product's own), and each connection's descriptions and
 * ICE / connection states, each with its time.
 */
export const RECORD_JOIN_TIMELINE = `(() => {
  if (window.__timeline) return;
  const t = { ws: [], pcs: [], log: [], sent: {}, iceDown: 0 };
  window.__timeline = t;
  // A publisher's page lives through every join: its log keeps the latest entries.
  const note = (text) => { t.log.push([performance.now(), text]); if (t.log.length > 6000) t.log.splice(0, 2000); };
  const say = (data) => {
    try {
      const m = JSON.parse(String(data));
      const body = m.plugindata?.data ?? m.body ?? {};
      return [m.janus, m.videomote, body.request, body.videoroom, m.jsep?.type, m.candidate ? 'candidate' : ''].filter(Boolean).join(' ');
    } catch { return String(data).slice(0, 30); }
  };
  const NativeWs = window.WebSocket;
  const Ws = new Proxy(NativeWs, {
    construct(target, args, newTarget) {
      const ws = Reflect.construct(target, args, newTarget === Ws ? target : newTarget);
      const e = { created: performance.now(), open: NaN, path: new URL(String(args[0]), location.href).pathname.split('/')[1] };
      const n = t.ws.push(e);
      const name = 'ws' + n + ' ' + e.path;
      note(name + ' made');
      ws.addEventListener('open', () => { e.open = performance.now(); note(name + ' open'); });
      ws.addEventListener('message', (ev) => note(name + ' <- ' + say(ev.data)));
      const send = ws.send.bind(ws);
      ws.send = (d) => { const what = say(d); t.sent[what] = (t.sent[what] ?? 0) + 1; note(name + ' -> ' + what); return send(d); };
      return ws;
    },
  });
  window.WebSocket = Ws;
  const NativePc = window.RTCPeerConnection;
  const Pc = new Proxy(NativePc, {
    construct(target, args, newTarget) {
      const pc = Reflect.construct(target, args, newTarget === Pc ? target : newTarget);
      const e = { pc, created: performance.now(), remote: NaN, connected: NaN };
      const name = 'pc' + t.pcs.push(e);
      note(name + ' made');
      const setRemote = pc.setRemoteDescription.bind(pc);
      pc.setRemoteDescription = (...a) => { if (Number.isNaN(e.remote)) e.remote = performance.now(); note(name + ' remote ' + (a[0]?.type ?? '')); return setRemote(...a); };
      const setLocal = pc.setLocalDescription.bind(pc);
      pc.setLocalDescription = (...a) => { note(name + ' local ' + (a[0]?.type ?? '')); return setLocal(...a); };
      pc.addEventListener('iceconnectionstatechange', () => {
        if (pc.iceConnectionState === 'disconnected' || pc.iceConnectionState === 'failed') t.iceDown += 1;
        note(name + ' ice ' + pc.iceConnectionState);
      });
      pc.addEventListener('icegatheringstatechange', () => note(name + ' gathering ' + pc.iceGatheringState));
      pc.addEventListener('track', (ev) => note(name + ' track ' + ev.track.kind));
      pc.addEventListener('connectionstatechange', () => {
        note(name + ' connection ' + pc.connectionState);
        if (pc.connectionState === 'connected' && Number.isNaN(e.connected)) e.connected = performance.now();
      });
      return pc;
    },
  });
  window.RTCPeerConnection = Pc;
  // Main-thread tasks over 50 ms: what a page busy with itself makes every later step wait for.
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) t.log.push([e.startTime, 'long task ' + e.duration.toFixed(0) + ' ms']); }).observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;

/**
 * The page's ladder around each time its product `/media` socket was replaced (a resume): what it sent, received and
 * saw of its connections from `beforeMs` before the new socket was made until `afterMs` after.
 */
export const ladderAroundResumes = ([beforeMs, afterMs]: [number, number]): string[] => {
  const log = (window as unknown as { __timeline?: { log: [number, string][] } }).__timeline?.log ?? [];
  const made = log.filter(([, text]) => /^ws\d+ media made$/.test(text)).slice(1);
  const out: string[] = [];
  for (const [at] of made) {
    out.push(`  -- a new /media socket at ${at.toFixed(0)}:`);
    for (const [t, text] of log) if (t >= at - beforeMs && t <= at + afterMs) out.push(`  ${t.toFixed(0).padStart(7)}  ${text}`);
  }
  return out;
};

/** The join's ladder: "ms  what" lines, repeats of the same line in a row folded into one with a count. */
export const joinLadder = (): string[] => {
  const log = [...((window as unknown as { __timeline?: { log: [number, string][] } }).__timeline?.log ?? [])];
  // What the page fetched (its documents, scripts and API calls), from when asked to when answered.
  for (const r of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    const url = new URL(r.name);
    log.push([r.startTime, `fetch ${url.pathname.slice(0, 60)} (${r.initiatorType}) answered at ${r.responseEnd.toFixed(0)}`]);
  }
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (nav) log.push([nav.domContentLoadedEventEnd, 'DOMContentLoaded'], [nav.loadEventEnd, 'load']);
  log.sort((a, b) => a[0] - b[0]);
  const out: string[] = [];
  let last = '';
  let repeats = 0;
  for (const [at, text] of log) {
    if (text === last) {
      repeats += 1;
      continue;
    }
    if (repeats) out[out.length - 1] += ` (x${repeats + 1})`;
    repeats = 0;
    last = text;
    out.push(`${at.toFixed(0).padStart(6)}  ${text}`);
  }
  if (repeats) out[out.length - 1] += ` (x${repeats + 1})`;
  return out;
};

export interface JoinTimeline {
  /** The page's HTML arrived. */
  pageArrived: number;
  /** The product's gettoken asked for, its answer's first byte, answered (NaN for the bare client, which has none). */
  tokenAsked: number;
  tokenFirstByte: number;
  tokenAnswered: number;
  /** The product's app bundle arrived (NaN for the bare client). */
  appScript: number;
  /** janus.js arrived (from the HTTP cache after the first join). */
  janusScript: number;
  /** The first WebSocket made since the join began (the product's /media socket; the bare client's Janus socket): made, open. */
  socketMade: number;
  socketOpen: number;
  /** The connection that receives the remote videos: made, its remote description (Janus's offer) set, connected. */
  receiverCreated: number;
  receiverOffer: number;
  receiverConnected: number;
}

/**
 * Where a join's time went (ms since navigation), from RECORD_JOIN_TIMELINE, after the videos decode. `since`: only the
 * sockets and connections made from then on (a join from the lobby, whose page made its connection check's before).
 */
export const joinTimeline = async (since = 0): Promise<JoinTimeline> => {
  const t = (window as unknown as { __timeline?: { ws: { created: number; open: number; path: string }[]; pcs: { pc: RTCPeerConnection; created: number; remote: number; connected: number }[] } }).__timeline;
  const out: JoinTimeline = { pageArrived: NaN, tokenAsked: NaN, tokenFirstByte: NaN, tokenAnswered: NaN, appScript: NaN, janusScript: NaN, socketMade: NaN, socketOpen: NaN, receiverCreated: NaN, receiverOffer: NaN, receiverConnected: NaN };
  out.pageArrived = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseEnd ?? NaN;
  for (const r of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    if (r.name.includes('/api/meeting/gettoken') && Number.isNaN(out.tokenAnswered)) Object.assign(out, { tokenAsked: r.startTime, tokenFirstByte: r.responseStart, tokenAnswered: r.responseEnd });
    if (/\/assets\/index-[^/]*\.js$/.test(r.name) && Number.isNaN(out.appScript)) out.appScript = r.responseEnd;
    if (r.name.includes('/janus.es') && Number.isNaN(out.janusScript)) out.janusScript = r.responseEnd;
  }
  if (!t) return out;
  const socket = t.ws.find((w) => w.created >= since && w.path !== 'chat');
  out.socketMade = socket?.created ?? NaN;
  out.socketOpen = socket?.open ?? NaN;
  let most = 0;
  for (const e of t.pcs) {
    if (e.created < since) continue;
    let videos = 0;
    try {
      (await e.pc.getStats()).forEach((s: { type: string; kind?: string }) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') videos += 1;
      });
    } catch {
      continue;
    }
    if (videos > most) {
      most = videos;
      out.receiverCreated = e.created;
      out.receiverOffer = e.remote;
      out.receiverConnected = e.connected;
    }
  }
  return out;
};
