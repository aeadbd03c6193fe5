import { describe, expect, it } from 'vitest';
import { readJanusAnswer } from './janus-answers.ts';
import type { Expectation } from './relay-policy.ts';

const waiting = (tx: string, expect: Expectation) => new Map([[tx, expect]]);
const videoroom = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ janus: 'event', transaction: 't', plugindata: { plugin: 'janus.plugin.videoroom', data }, ...extra });

describe('readJanusAnswer', () => {
  it('settles a request on its answer, not on the ack before it', () => {
    expect(readJanusAnswer({ janus: 'ack', transaction: 't' }, waiting('t', { kind: 'create' }))).toEqual({ settles: null, events: [] });
    expect(readJanusAnswer({ janus: 'success', transaction: 't', data: { id: 5 } }, waiting('t', { kind: 'create' }))).toEqual({ settles: 't', events: [{ kind: 'session-created', sessionId: 5 }] });
  });

  it('reads a new handle with its session and whether it is the screen share', () => {
    expect(readJanusAnswer({ janus: 'success', transaction: 't', data: { id: 9 } }, waiting('t', { kind: 'attach', sessionId: 5, videoType: 'screen' })).events).toEqual([
      { kind: 'handle-attached', handleId: 9, sessionId: 5, videoType: 'screen' },
    ]);
  });

  it("reads a publisher's join (its feed id), then its answered offer (audio mids, media started)", () => {
    expect(readJanusAnswer(videoroom({ videoroom: 'joined', id: 1234 }), waiting('t', { kind: 'publisher-join', handleId: 9 })).events).toEqual([
      { kind: 'publisher-answered', handleId: 9, feedId: 1234, started: false },
    ]);
    const answer = videoroom({ videoroom: 'event', configured: 'ok', streams: [{ type: 'audio', mid: '0' }, { type: 'video', mid: '1' }] }, { jsep: { type: 'answer' } });
    expect(readJanusAnswer(answer, waiting('t', { kind: 'publish', handleId: 9 })).events).toEqual([{ kind: 'publisher-answered', handleId: 9, audioMids: ['0'], started: true }]);
  });

  it('reports a refusal with Janus’s code and reason, and frees a refused join’s handle', () => {
    const refused = videoroom({ videoroom: 'event', error_code: 426, error: 'No such feed' });
    expect(readJanusAnswer(refused, waiting('t', { kind: 'subscriber-join', handleId: 3 })).events).toEqual([
      { kind: 'failed', request: 'subscriber-join', detail: '426 No such feed' },
      { kind: 'join-refused', handleId: 3 },
    ]);
    // A refused offer leaves the joined publisher as it is.
    expect(readJanusAnswer(refused, waiting('t', { kind: 'publish', handleId: 3 })).events).toEqual([{ kind: 'failed', request: 'publish', detail: '426 No such feed' }]);
    expect(readJanusAnswer({ janus: 'error', transaction: 't', error: { code: 458, reason: 'No such session' } }, waiting('t', { kind: 'attach', sessionId: 1 })).events).toEqual([
      { kind: 'failed', request: 'attach', detail: '458 No such session' },
    ]);
  });

  it('forgets a detached handle, but only unpublishes one whose detach Janus refused', () => {
    expect(readJanusAnswer({ janus: 'success', transaction: 't' }, waiting('t', { kind: 'detach', handleId: 3 })).events).toEqual([{ kind: 'handle-gone', handleId: 3 }]);
    expect(readJanusAnswer({ janus: 'error', transaction: 't', error: { code: 457 } }, waiting('t', { kind: 'detach', handleId: 3 })).events).toEqual([
      { kind: 'failed', request: 'detach', detail: '457 error' },
      { kind: 'unpublished', handleId: 3 },
    ]);
  });

  it("reads what Janus says on its own: a hangup, a detach, a kick, a feed that left, a session's timeout", () => {
    const none = new Map<string, Expectation>();
    expect(readJanusAnswer({ janus: 'hangup', sender: 3 }, none).events).toEqual([{ kind: 'unpublished', handleId: 3 }]);
    expect(readJanusAnswer({ janus: 'detached', sender: 3 }, none).events).toEqual([{ kind: 'handle-gone', handleId: 3 }]);
    expect(readJanusAnswer({ janus: 'event', sender: 3, plugindata: { data: { videoroom: 'event', leaving: 'ok' } } }, none).events).toEqual([{ kind: 'unpublished', handleId: 3 }]);
    expect(readJanusAnswer({ janus: 'event', sender: 3, plugindata: { data: { videoroom: 'event', unpublished: 77 } } }, none).events).toEqual([{ kind: 'feed-left', feedId: 77 }]);
    expect(readJanusAnswer({ janus: 'timeout', session_id: 5 }, none).events).toEqual([{ kind: 'session-gone', sessionId: 5 }]);
  });

  it('ignores an answer to a transaction it is not waiting for', () => {
    expect(readJanusAnswer({ janus: 'success', transaction: 'other', data: { id: 5 } }, waiting('t', { kind: 'create' }))).toEqual({ settles: null, events: [] });
  });
});
