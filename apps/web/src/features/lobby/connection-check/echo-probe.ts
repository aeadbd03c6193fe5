import type { ConnectionCheckResult } from '@videomote/contract/connection-check';
import type { IceServer } from '@videomote/contract/media';
import { CHECK_TIMEOUT_MS, checkOutcome, selectedLocalCandidateType, type StatsEntry } from './check-outcome.ts';

/**
 * The lobby's test peer connection: to the meeting's Janus through our `/media` relay (`probe=1`, which lets only
 * Janus's echo plugin be reached) with the ICE servers the call would use, carrying a data channel only (no camera
 * or microphone needed). It speaks the few Janus API messages itself rather than load janus.js, which travels with
 * the conference route only. Answers 'direct', 'turn' or 'failed'; throws when the check itself could not run
 * (the relay or Janus unreachable), which says nothing about the media path.
 */
const ECHOTEST = 'janus.plugin.echotest';

type Json = Record<string, unknown>;

export async function runEchoProbe(opts: { mediaBaseUrl: string; meetingId: string; token: string; iceServers: IceServer[]; signal?: AbortSignal }): Promise<ConnectionCheckResult> {
  const url = `${opts.mediaBaseUrl}/${encodeURIComponent(opts.meetingId)}?token=${encodeURIComponent(opts.token)}&probe=1`;
  const ws = new WebSocket(url, 'janus-protocol');
  const waiting = new Map<string, { resolve(m: Json): void; reject(e: Error): void }>();
  const remoteCandidates: RTCIceCandidateInit[] = [];
  let pc: RTCPeerConnection | null = null;
  let sessionId: number | null = null;
  let handleId: number | null = null;
  let tx = 0;
  const broken = (why: string) => {
    for (const w of waiting.values()) w.reject(new Error(why));
    waiting.clear();
  };
  ws.onmessage = (event) => {
    let msg: Json;
    try {
      msg = JSON.parse(String(event.data)) as Json;
    } catch {
      return;
    }
    if (msg.janus === 'trickle') {
      const c = msg.candidate as (RTCIceCandidateInit & { completed?: boolean }) | undefined;
      if (!c || c.completed) return;
      if (pc?.remoteDescription) void pc.addIceCandidate(c).catch(() => {});
      else remoteCandidates.push(c);
      return;
    }
    const t = typeof msg.transaction === 'string' ? msg.transaction : '';
    if (msg.janus === 'ack' || !waiting.has(t)) return;
    const w = waiting.get(t)!;
    waiting.delete(t);
    if (msg.janus === 'error') w.reject(new Error(String((msg.error as Json | undefined)?.reason ?? 'refused')));
    else w.resolve(msg);
  };
  ws.onclose = () => broken('socket closed');
  const send = (msg: Json, answered = true): Promise<Json> =>
    new Promise((resolve, reject) => {
      const transaction = `check-${++tx}`;
      if (answered) waiting.set(transaction, { resolve, reject });
      if (ws.readyState !== WebSocket.OPEN) return reject(new Error('socket closed'));
      ws.send(JSON.stringify({ ...msg, transaction }));
      if (!answered) resolve({});
    });
  const cleanUp = () => {
    if (sessionId !== null && ws.readyState === WebSocket.OPEN) void send({ janus: 'destroy', session_id: sessionId }, false).catch(() => {});
    pc?.close();
    ws.close();
  };
  opts.signal?.addEventListener('abort', cleanUp);
  try {
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error('the media relay could not be reached'));
    });
    sessionId = Number(((await send({ janus: 'create' })).data as Json).id);
    handleId = Number(((await send({ janus: 'attach', session_id: sessionId, plugin: ECHOTEST })).data as Json).id);
    const peer = (pc = new RTCPeerConnection({ iceServers: opts.iceServers as RTCIceServer[] }));
    peer.createDataChannel('connection-check');
    const ids = { session_id: sessionId, handle_id: handleId };
    peer.onicecandidate = (e) => void send({ janus: 'trickle', ...ids, candidate: e.candidate ?? { completed: true } }, false).catch(() => {});
    const connected = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
      peer.onconnectionstatechange = () => {
        if (peer.connectionState === 'connected' || peer.connectionState === 'failed') {
          clearTimeout(timer);
          resolve(peer.connectionState === 'connected');
        }
      };
    });
    await peer.setLocalDescription(await peer.createOffer());
    const answer = await send({ janus: 'message', ...ids, body: {}, jsep: { type: 'offer', sdp: peer.localDescription!.sdp } });
    const jsep = answer.jsep as RTCSessionDescriptionInit | undefined;
    if (!jsep) throw new Error('no answer from the media server');
    await peer.setRemoteDescription(jsep);
    for (const c of remoteCandidates.splice(0)) await peer.addIceCandidate(c).catch(() => {});
    const ok = await connected;
    const stats: StatsEntry[] = [];
    if (ok) (await peer.getStats()).forEach((s: StatsEntry) => stats.push(s));
    return checkOutcome(ok, selectedLocalCandidateType(stats));
  } finally {
    opts.signal?.removeEventListener('abort', cleanUp);
    cleanUp();
  }
}
