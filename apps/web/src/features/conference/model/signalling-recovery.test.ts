import { describe, expect, it } from 'vitest';
import { afterLost, canResume, heldThroughResume, iceGaveUpError, reopenResumeSocket, SOCKET_FIRST_RETRY_MS, type ConnectionAtResume, type SocketState } from './signalling-recovery.ts';

const up: SocketState = { everConnected: true, kicked: false, closed: false, hasSession: true, lastCloseCode: 0 };

describe('signalling recovery', () => {
  it('resumes a socket that broke or hangs in a call that was up, never one the server closed', () => {
    expect(canResume(up)).toBe(true);
    expect(canResume({ ...up, lastCloseCode: 1006 })).toBe(true);
    for (const code of [1000, 1001, 1011, 4001, 4002]) expect(canResume({ ...up, lastCloseCode: code })).toBe(false);
    expect(canResume({ ...up, everConnected: false })).toBe(false);
    expect(canResume({ ...up, kicked: true })).toBe(false);
    expect(canResume({ ...up, closed: true })).toBe(false);
    expect(canResume({ ...up, hasSession: false })).toBe(false);
  });

  it('ends the session of someone removed, whatever else', () => {
    expect(afterLost(1, true, true)).toEqual({ kind: 'end' });
    expect(afterLost(5, false, true)).toEqual({ kind: 'end' });
  });

  it('retries with the back-off; a call that was up says it is reconnecting at once', () => {
    expect(afterLost(1, true, false)).toEqual({ kind: 'retry', delay: 500, status: 'reconnecting' });
    expect(afterLost(2, true, false)).toEqual({ kind: 'retry', delay: 1_000, status: 'reconnecting' });
    expect(afterLost(9, true, false)).toEqual({ kind: 'retry', delay: 8_000, status: 'reconnecting' });
  });

  it("says 'Anslutning misslyckades' only after the third failed first attempt, and keeps trying", () => {
    expect(afterLost(1, false, false)).toEqual({ kind: 'retry', delay: 500, status: null });
    expect(afterLost(2, false, false)).toEqual({ kind: 'retry', delay: 1_000, status: null });
    expect(afterLost(3, false, false)).toEqual({ kind: 'retry', delay: 2_000, status: 'failed' });
    expect(afterLost(4, false, false).kind).toBe('retry');
  });

  it('tells a broken network from one that never lets media through, and is silent when other media gets through', () => {
    expect(iceGaveUpError(true, true)).toBe('networkDisconnected');
    expect(iceGaveUpError(true, false)).toBe('networkDisconnected');
    expect(iceGaveUpError(false, false)).toBe('connectionFailed');
    expect(iceGaveUpError(false, true)).toBeNull();
  });

  it('opens a new resume socket when packets arrive again after a quiet reading, not before TCP\'s own first retry', () => {
    // The link came back while the socket's opening waits on TCP's retries.
    expect(reopenResumeSocket(SOCKET_FIRST_RETRY_MS, true, true)).toBe(true);
    expect(reopenResumeSocket(4_000, true, true)).toBe(true);
    // Still quiet: a new socket would wait the same.
    expect(reopenResumeSocket(4_000, true, false)).toBe(false);
    // Packets never stopped (a server slow to answer, not a dead link): the socket is left to open.
    expect(reopenResumeSocket(4_000, false, true)).toBe(false);
    // Younger than TCP's first retry, which is about to go out anyway.
    expect(reopenResumeSocket(SOCKET_FIRST_RETRY_MS - 1, true, true)).toBe(false);
  });

  it('leaves a connection whose path carried it through the outage, and restarts every other one at the resume', () => {
    const held: ConnectionAtResume = { ice: 'connected', signaling: 'stable', restartAskedMeanwhile: false, bytesAtGiveUp: 5_000, bytesNow: 9_000 };
    expect(heldThroughResume(held)).toBe(true);
    expect(heldThroughResume({ ...held, ice: 'completed' })).toBe(true);
    // Nothing came in since the give-up: the path may have moved (an address change ICE has not noticed yet).
    expect(heldThroughResume({ ...held, bytesNow: 5_000 })).toBe(false);
    expect(heldThroughResume({ ...held, bytesAtGiveUp: null })).toBe(false);
    expect(heldThroughResume({ ...held, bytesNow: null })).toBe(false);
    // ICE itself says it is broken, or is still checking.
    for (const ice of ['disconnected', 'failed', 'checking', 'new'] as const) expect(heldThroughResume({ ...held, ice })).toBe(false);
    // A restart asked for while the socket was dead may have been lost with it.
    expect(heldThroughResume({ ...held, restartAskedMeanwhile: true })).toBe(false);
    // A publisher's restart offer that was never answered.
    expect(heldThroughResume({ ...held, signaling: 'have-local-offer' })).toBe(false);
  });
});
