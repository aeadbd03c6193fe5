import type { Page } from 'playwright-core';
import { apiCall } from './call.ts';

export interface RawPublishAttempt {
  /** The relay's final answer to `join` as a publisher (an `event` when admitted, an `error` when refused). */
  joined: Record<string, unknown>;
  /** The final answer to a `configure` with a video offer; absent unless `offerVideo` was asked for. */
  published?: Record<string, unknown>;
}

/**
 * Plays a modified client that skips the web app's own checks: from inside the page (its session cookie, its origin)
 * it takes a media token, opens the `/media/{meetingId}` relay with raw Janus messages, waits for the relay's room,
 * joins the videoroom as a publisher and, with `offerVideo`, offers a canvas video track. Which step the relay refuses
 * is for the caller to assert. (Node-side probes use `RawMediaClient` in media.ts; this one needs the browser's
 * WebRTC stack for a real offer.)
 */
export async function rawPublishAttempt(
  page: Page,
  options: { meetingId: string; displayName?: string; opaqueId?: string; offerVideo?: boolean },
): Promise<RawPublishAttempt> {
  const { meetingId, displayName, opaqueId, offerVideo = false } = options;
  const tokenRes = await apiCall(page, 'POST', '/api/meeting/gettoken', { meetingId, ...(displayName === undefined ? {} : { displayName }) });
  if (tokenRes.status !== 200) throw new Error(`gettoken answered ${tokenRes.status}: ${tokenRes.body}`);
  const token = (JSON.parse(tokenRes.body) as { data: { tokenData: { token: string } } }).data.tokenData.token;
  return page.evaluate(
    async ({ meetingId, token, opaqueId, offerVideo }) => {
      const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/media/${meetingId}?token=${encodeURIComponent(token)}`, 'janus-protocol');
      const replies = new Map<string, (m: Record<string, unknown>) => void>();
      let room = 0;
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.videomote === 'connected') room = m.roomId;
        if (m.janus && m.janus !== 'ack' && replies.has(m.transaction)) replies.get(m.transaction)!(m);
      };
      await new Promise((r) => (ws.onopen = r));
      const ask = (msg: Record<string, unknown>) =>
        new Promise<Record<string, unknown>>((resolve) => {
          const transaction = Math.random().toString(36).slice(2);
          replies.set(transaction, resolve);
          ws.send(JSON.stringify({ ...msg, transaction }));
        });
      // Join the room the relay names, so that a refusal is about who asks, not about a wrong room.
      for (const until = Date.now() + 15_000; !room; await new Promise((r) => setTimeout(r, 50))) {
        if (Date.now() > until) throw new Error('the relay never said which room it joined');
      }
      const session = ((await ask({ janus: 'create' })).data as { id: number }).id;
      const attach = { janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom', ...(opaqueId ? { opaque_id: opaqueId } : {}) };
      const handle = ((await ask(attach)).data as { id: number }).id;
      const joined = await ask({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'join', ptype: 'publisher', room } });
      let published: Record<string, unknown> | undefined;
      if (offerVideo) {
        const stream = document.createElement('canvas').captureStream(5);
        const pc = new RTCPeerConnection({ iceServers: [] });
        pc.addTrack(stream.getVideoTracks()[0]!, stream);
        const offer = await pc.createOffer();
        await pc.setLocalDescription(offer);
        published = await ask({ janus: 'message', session_id: session, handle_id: handle, body: { request: 'configure', video: true }, jsep: { type: 'offer', sdp: offer.sdp } });
        pc.close();
      }
      ws.close();
      return { joined, published };
    },
    { meetingId, token, opaqueId, offerVideo },
  );
}
