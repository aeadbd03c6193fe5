import { describe, expect, it } from 'vitest';
import { ICE_CONNECT_TIMEOUT_MS, ICE_DISCONNECTED_GRACE_MS, ICE_MAX_RESTARTS, ICE_MAX_RESTARTS_NEVER_CONNECTED, IceRecovery, type Timers } from './ice-recovery.ts';

/** Timers moved by hand: `advance(ms)` runs what falls due. */
function fakeTimers() {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    set: (fn, ms) => {
      const id = next++;
      due.set(id, { at: now + ms, fn });
      return id;
    },
    clear: (id) => void due.delete(id as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const first = [...due.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!first) break;
      due.delete(first[0]);
      now = first[1].at;
      first[1].fn();
    }
    now = end;
  };
  return { timers, advance };
}

function setup() {
  const t = fakeTimers();
  const log: string[] = [];
  const r = new IceRecovery(
    { restart: () => log.push('restart'), reconnecting: (on) => log.push(on ? 'reconnecting' : 'reconnected'), giveUp: (ever) => log.push(`give up ${ever}`) },
    t.timers,
  );
  return { r, log, advance: t.advance };
}

describe('ICE recovery', () => {
  it('restarts on the same connection after a disconnect that does not heal, and says reconnecting until connected', () => {
    const { r, log, advance } = setup();
    r.update('checking');
    expect(r.connectedOnce).toBe(false);
    r.update('connected');
    expect(r.connectedOnce).toBe(true);
    r.update('disconnected');
    expect(log).toEqual(['reconnecting']);
    advance(ICE_DISCONNECTED_GRACE_MS);
    expect(log).toEqual(['reconnecting', 'restart']);
    // On the way, more "disconnected" must not stack restarts: the restart's own timeout decides.
    r.update('disconnected');
    advance(ICE_DISCONNECTED_GRACE_MS * 2);
    expect(log).toEqual(['reconnecting', 'restart']);
    r.update('connected');
    expect(log).toEqual(['reconnecting', 'restart', 'reconnected']);
    advance(ICE_CONNECT_TIMEOUT_MS * 5);
    expect(log).toHaveLength(3);
  });

  it('lets a short disconnect heal by itself without a restart', () => {
    const { r, log, advance } = setup();
    r.update('connected');
    r.update('disconnected');
    advance(ICE_DISCONNECTED_GRACE_MS - 1);
    r.update('connected');
    advance(ICE_CONNECT_TIMEOUT_MS * 5);
    expect(log).toEqual(['reconnecting', 'reconnected']);
  });

  it('restarts at once on failed, tries again when a restart does not connect, then gives up', () => {
    const { r, log, advance } = setup();
    r.update('connected');
    r.update('failed');
    expect(log).toEqual(['reconnecting', 'restart']);
    advance(ICE_CONNECT_TIMEOUT_MS * (ICE_MAX_RESTARTS + 1));
    expect(log).toEqual(['reconnecting', ...Array(ICE_MAX_RESTARTS).fill('restart'), 'give up true']);
    r.update('connected');
    expect(log.at(-1)).toBe('give up true');
  });

  it('counts a connection that never connects as failed: restarts, then gives up as never connected', () => {
    const { r, log, advance } = setup();
    r.update('checking');
    advance(ICE_CONNECT_TIMEOUT_MS * (ICE_MAX_RESTARTS + 1));
    expect(log).toEqual([...Array(ICE_MAX_RESTARTS_NEVER_CONNECTED).fill('restart'), 'give up false']);
    expect(r.connectedOnce).toBe(false);
    expect(ICE_MAX_RESTARTS_NEVER_CONNECTED).toBeLessThan(ICE_MAX_RESTARTS);
  });

  it('forgets earlier restarts once connected again, and stops when closed', () => {
    const { r, log, advance } = setup();
    r.update('connected');
    for (let i = 0; i < ICE_MAX_RESTARTS + 2; i++) {
      r.update('failed');
      r.update('connected');
    }
    expect(log.filter((l) => l === 'restart')).toHaveLength(ICE_MAX_RESTARTS + 2);
    expect(log.some((l) => l.startsWith('give up'))).toBe(false);
    r.update('closed');
    r.update('failed');
    advance(ICE_CONNECT_TIMEOUT_MS * 10);
    expect(log.filter((l) => l === 'restart')).toHaveLength(ICE_MAX_RESTARTS + 2);
  });

  it('restarts at once when the signalling socket was replaced, broken or not', () => {
    const { r, log, advance } = setup();
    r.update('connected');
    r.update('failed');
    advance(1_000);
    r.restartNow();
    expect(log).toEqual(['reconnecting', 'restart', 'restart']);
    r.update('connected');
    expect(log.at(-1)).toBe('reconnected');
    r.restartNow();
    expect(log.at(-1)).toBe('restart');
  });

  it('takes a restart of a connection that kept working (no state change) as done when its timeout finds it connected', () => {
    const t = fakeTimers();
    const log: string[] = [];
    let state: RTCIceConnectionState = 'connected';
    const r = new IceRecovery({ restart: () => log.push('restart'), reconnecting: () => {}, giveUp: () => log.push('give up'), currentState: () => state }, t.timers);
    r.update('connected');
    r.restartNow();
    t.advance(ICE_CONNECT_TIMEOUT_MS * 10);
    expect(log).toEqual(['restart']);
    // Whereas one that stays broken is restarted again, then given up.
    state = 'disconnected';
    r.update('disconnected');
    t.advance(ICE_CONNECT_TIMEOUT_MS * 10);
    expect(log).toEqual(['restart', ...Array(ICE_MAX_RESTARTS).fill('restart'), 'give up']);
  });
});
