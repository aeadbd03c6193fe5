import type { Expectation } from './relay-policy.ts';

type Json = Record<string, unknown>;

/** What one message from Janus means for a relay's state: the ids the policy counts, and what the server is told. */
export type JanusAnswerEvent =
  /** Janus refused one of the connection's requests (Felsökning records it). */
  | { kind: 'failed'; request: Expectation['kind']; detail: string }
  | { kind: 'session-created'; sessionId: number }
  | { kind: 'handle-attached'; handleId: number; sessionId: number; videoType?: 'screen' }
  /** A refused join (no such feed yet, room full) leaves the handle free to try again, and frees its place under the caps. */
  | { kind: 'join-refused'; handleId: number }
  /** A publisher's join or offer was answered: its feed id once joined, its audio mids, and whether media now flows. */
  | { kind: 'publisher-answered'; handleId: number; feedId?: number; audioMids?: string[]; started: boolean }
  | { kind: 'unpublished'; handleId: number }
  /** Janus no longer has the handle (detached): its feed is unpublished and it no longer counts. */
  | { kind: 'handle-gone'; handleId: number }
  | { kind: 'session-gone'; sessionId: number }
  /** Another publisher's feed left the room (told to this connection's publisher). */
  | { kind: 'feed-left'; feedId: number };

export interface JanusAnswer {
  /** The transaction this message settles (its pending request is done), if any. */
  settles: string | null;
  events: JanusAnswerEvent[];
}

/**
 * Reads a message from Janus against the requests the relay sent and still waits for (`pending`, by transaction).
 * Pure: the relay applies the events to its state and tells the server (janus-relay.ts).
 */
export function readJanusAnswer(msg: Json, pending: ReadonlyMap<string, Expectation>): JanusAnswer {
  const events: JanusAnswerEvent[] = [];
  const tx = typeof msg.transaction === 'string' ? msg.transaction : null;
  const expect = tx ? pending.get(tx) : undefined;
  const janus = msg.janus;
  const data = ((msg.plugindata as Json | undefined)?.data ?? {}) as Json;
  const sender = typeof msg.sender === 'number' ? msg.sender : null;
  const settles = expect && janus !== 'ack' ? tx : null;

  if (expect && settles !== null) {
    const ok = janus === 'success' || (janus === 'event' && data.error_code === undefined);
    if (!ok) events.push({ kind: 'failed', request: expect.kind, detail: failureOf(msg, data) });
    const id = Number(((msg.data ?? {}) as Json).id);
    switch (expect.kind) {
      case 'create':
        if (ok) events.push({ kind: 'session-created', sessionId: id });
        break;
      case 'attach':
        if (ok) events.push({ kind: 'handle-attached', handleId: id, sessionId: expect.sessionId, ...(expect.videoType ? { videoType: expect.videoType } : {}) });
        break;
      case 'subscriber-join':
        if (!ok) events.push({ kind: 'join-refused', handleId: expect.handleId });
        break;
      case 'publisher-join':
      case 'publish':
        if (!ok) {
          // A failed offer leaves the joined handle as it was; a failed join frees it.
          if (expect.kind === 'publisher-join') events.push({ kind: 'join-refused', handleId: expect.handleId });
          break;
        }
        events.push({
          kind: 'publisher-answered',
          handleId: expect.handleId,
          ...(data.videoroom === 'joined' && typeof data.id === 'number' ? { feedId: data.id } : {}),
          ...(Array.isArray(data.streams) ? { audioMids: (data.streams as Json[]).filter((s) => s.type === 'audio' && typeof s.mid === 'string').map((s) => s.mid as string) } : {}),
          started: expect.kind === 'publish' && (data.configured === 'ok' || Boolean(msg.jsep)),
        });
        break;
      case 'unpublish':
        events.push({ kind: 'unpublished', handleId: expect.handleId });
        break;
      case 'detach':
        // A refused detach leaves the handle counted (Janus may still hold it); its feed is gone either way.
        events.push(ok ? { kind: 'handle-gone', handleId: expect.handleId } : { kind: 'unpublished', handleId: expect.handleId });
        break;
      case 'destroy':
        events.push({ kind: 'session-gone', sessionId: expect.sessionId });
        break;
    }
  }

  if (sender !== null) {
    // Janus-initiated endings: the PeerConnection closed, the handle was detached, or the server kicked us.
    if (janus === 'hangup') events.push({ kind: 'unpublished', handleId: sender });
    if (janus === 'detached') events.push({ kind: 'handle-gone', handleId: sender });
    if (janus === 'event' && (data.unpublished === 'ok' || data.leaving === 'ok')) events.push({ kind: 'unpublished', handleId: sender });
    for (const left of [data.unpublished, data.leaving]) if (janus === 'event' && typeof left === 'number') events.push({ kind: 'feed-left', feedId: left });
  }
  if (janus === 'timeout' && typeof msg.session_id === 'number') events.push({ kind: 'session-gone', sessionId: msg.session_id });
  return { settles, events };
}

/** Janus's code and reason for a refusal, from a plugin's answer or Janus's own error. */
function failureOf(msg: Json, data: Json): string {
  const error = (msg.error ?? {}) as Json;
  const code = data.error_code ?? error.code;
  const reason = data.error ?? error.reason;
  return `${typeof code === 'number' ? `${code} ` : ''}${typeof reason === 'string' ? reason : String(msg.janus)}`;
}
