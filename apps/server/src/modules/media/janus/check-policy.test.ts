import { describe, expect, it } from 'vitest';
import { checkProbeMessage, ECHOTEST, emptyCheckState, learnFromJanus, type CheckState } from './check-policy.ts';

const OFFER = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n';

/** A check that has its session (11) and echo handle (22). */
function ready(): CheckState {
  const state = emptyCheckState();
  expect(checkProbeMessage({ janus: 'create', transaction: 'c' }, state).ok).toBe(true);
  learnFromJanus({ janus: 'success', transaction: 'c', data: { id: 11 } }, state);
  expect(checkProbeMessage({ janus: 'attach', transaction: 'a', session_id: 11, plugin: ECHOTEST }, state).ok).toBe(true);
  learnFromJanus({ janus: 'success', transaction: 'a', data: { id: 22 } }, state);
  return state;
}

describe('what the lobby\'s connection check may ask of Janus', () => {
  it('one session, one echo handle, one data-only offer with its candidates, and goodbye', () => {
    const state = ready();
    expect(state).toMatchObject({ sessionId: 11, handleId: 22 });
    const offer = checkProbeMessage({ janus: 'message', transaction: 'o', session_id: 11, handle_id: 22, body: { record: true, filename: '/tmp/x' }, jsep: { type: 'offer', sdp: OFFER } }, state);
    // The body is the server's: recording options of the echo plugin never pass.
    expect(offer).toEqual({ ok: true, message: { janus: 'message', transaction: 'o', session_id: 11, handle_id: 22, body: { audio: false, video: false, data: true }, jsep: { type: 'offer', sdp: OFFER } } });
    expect(checkProbeMessage({ janus: 'trickle', transaction: 't', session_id: 11, handle_id: 22, candidate: { completed: true } }, state).ok).toBe(true);
    expect(checkProbeMessage({ janus: 'keepalive', transaction: 'k', session_id: 11 }, state).ok).toBe(true);
    expect(checkProbeMessage({ janus: 'destroy', transaction: 'd', session_id: 11 }, state).ok).toBe(true);
  });

  it('refuses other plugins, a second session or handle, media lines, answers, secrets, and unknown ids', () => {
    const fresh = emptyCheckState();
    expect(checkProbeMessage({ janus: 'create', transaction: 'c1' }, fresh).ok).toBe(true);
    expect(checkProbeMessage({ janus: 'create', transaction: 'c2' }, fresh)).toEqual({ ok: false, reason: 'one session' });
    const state = ready();
    expect(checkProbeMessage({ janus: 'attach', transaction: 'a2', session_id: 11, plugin: 'janus.plugin.videoroom' }, state)).toEqual({ ok: false, reason: 'only the echo test' });
    expect(checkProbeMessage({ janus: 'attach', transaction: 'a3', session_id: 11, plugin: ECHOTEST }, state)).toEqual({ ok: false, reason: 'one handle' });
    const media = `${OFFER}m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n`;
    expect(checkProbeMessage({ janus: 'message', transaction: 'o', session_id: 11, handle_id: 22, body: {}, jsep: { type: 'offer', sdp: media } }, state)).toEqual({ ok: false, reason: 'a check carries data only' });
    expect(checkProbeMessage({ janus: 'message', transaction: 'o', session_id: 11, handle_id: 22, body: {}, jsep: { type: 'answer', sdp: OFFER } }, state).ok).toBe(false);
    expect(checkProbeMessage({ janus: 'message', transaction: 'o', session_id: 11, handle_id: 23, body: {}, jsep: { type: 'offer', sdp: OFFER } }, state)).toEqual({ ok: false, reason: 'unknown handle' });
    expect(checkProbeMessage({ janus: 'trickle', transaction: 't', session_id: 12, handle_id: 22, candidate: {} }, state)).toEqual({ ok: false, reason: 'unknown handle' });
    expect(checkProbeMessage({ janus: 'keepalive', transaction: 'k', session_id: 11, admin_secret: 'x' }, state)).toEqual({ ok: false, reason: '"admin_secret" is not accepted from a browser' });
    expect(checkProbeMessage({ janus: 'info', transaction: 'i' }, state)).toEqual({ ok: false, reason: '"info" is not allowed' });
  });

  it('learns no id from a refused create', () => {
    const state = emptyCheckState();
    checkProbeMessage({ janus: 'create', transaction: 'c' }, state);
    learnFromJanus({ janus: 'ack', transaction: 'c' }, state);
    expect(state.pending.size).toBe(1);
    learnFromJanus({ janus: 'error', transaction: 'c', error: { code: 403, reason: 'no' } }, state);
    expect(state).toMatchObject({ sessionId: null, pending: new Map() });
  });
});
