import { describe, expect, it } from 'vitest';
import {
  addressGained,
  mediaFlowedSince,
  ICE_CONNECT_TIMEOUT_MS,
  ICE_DISCONNECTED_GRACE_MS,
  ICE_MAX_RESTARTS,
  ICE_MAX_RESTARTS_NEVER_CONNECTED,
  IceRecovery,
  MEDIA_QUIET_MS,
  PAGE_STALL_MS,
  quietMediaVerdict,
  SIGNAL_DEAD_MS,
  SIGNAL_OVERDUE_MS,
  SIGNAL_PING_MS,
  SignalWatch,
} from './ice-recovery.ts';
import { handClock } from '../../../testing/hand-clock.ts';

const fakeTimers = handClock;

function setup() {
  const t = fakeTimers();
  const log: string[] = [];
  const r = new IceRecovery(
    { restart: () => log.push('restart'), reconnecting: (on) => log.push(on ? 'reconnecting' : 'reconnected'), giveUp: (ever) => log.push(`give up ${ever}`) },
    t.timers,
  );
  return { r, log, advance: t.advance };
}

/** An IceRecovery whose connection reads `state` (currentState), which the test changes with `set`. */
function withIceState(initial: RTCIceConnectionState) {
  const t = fakeTimers();
  const log: string[] = [];
  let state = initial;
  const r = new IceRecovery({ restart: () => log.push('restart'), reconnecting: () => {}, giveUp: () => log.push('give up'), currentState: () => state }, t.timers);
  return { r, log, t, set: (next: RTCIceConnectionState) => (state = next) };
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
    const { r, log, t, set } = withIceState('connected');
    r.update('connected');
    r.restartNow();
    t.advance(ICE_CONNECT_TIMEOUT_MS * 10);
    expect(log).toEqual(['restart']);
    // Whereas one that stays broken is restarted again, then given up.
    set('disconnected');
    r.update('disconnected');
    t.advance(ICE_CONNECT_TIMEOUT_MS * 10);
    expect(log).toEqual(['restart', ...Array(ICE_MAX_RESTARTS).fill('restart'), 'give up']);
  });
});

describe('the signalling socket watch', () => {
  /** Timers and a clock moved by hand; `advance` also lets the watch's awaited byte counts come in. */
  function watchSetup(bytes: () => number | null, sent: () => number | null = () => null) {
    const clock = handClock();
    const log: string[] = [];
    const watch = new SignalWatch(
      {
        ping: () => log.push(`${clock.now()} ping`),
        mediaBytes: async () => ({ received: bytes(), sent: sent() }),
        dead: () => log.push(`${clock.now()} dead`),
      },
      clock.timers,
      clock.now,
    );
    return { watch, log, advance: clock.settle, at: clock.now, stall: clock.stall };
  }
  const deaths = (log: string[]) => log.filter((l) => l.endsWith('dead'));

  it('pings every second and stays quiet while the server answers', async () => {
    const { watch, log, advance } = watchSetup(() => 0);
    for (let i = 0; i < 30; i++) {
      await advance(SIGNAL_PING_MS);
      watch.heard();
    }
    expect(log.filter((l) => l.endsWith('ping'))).toHaveLength(30);
    expect(deaths(log)).toEqual([]);
  });

  it('gives a socket up within ping + overdue + quiet media after the path went (an address change), and sleeps until heard again', async () => {
    let received = 1000;
    const { watch, log, advance } = watchSetup(() => received);
    await advance(SIGNAL_PING_MS);
    watch.heard();
    await advance(400); // the address moves at 1400: nothing more comes in, neither pongs nor media
    await advance(10_000);
    expect(deaths(log)).toEqual([`${2 * SIGNAL_PING_MS + SIGNAL_OVERDUE_MS + MEDIA_QUIET_MS} dead`]);
    expect(2 * SIGNAL_PING_MS + SIGNAL_OVERDUE_MS + MEDIA_QUIET_MS - 1400).toBeLessThanOrEqual(SIGNAL_PING_MS + SIGNAL_OVERDUE_MS + MEDIA_QUIET_MS);
    // Asleep while the page replaces the socket: no second death, no pings into the dead one.
    const pings = log.length;
    await advance(20_000);
    expect(log).toHaveLength(pings);
    watch.reset();
    received += 1;
    await advance(SIGNAL_PING_MS);
    expect(log.at(-1)).toMatch(/ping$/);
  });

  it('keeps a slow server while media still arrives, until the long silence', async () => {
    let received = 0;
    const { watch, log, advance, at } = watchSetup(() => (received += 500));
    watch.heard();
    await advance(SIGNAL_DEAD_MS - 1);
    expect(deaths(log)).toEqual([]);
    await advance(SIGNAL_PING_MS);
    expect(deaths(log)).toHaveLength(1);
    expect(at()).toBeGreaterThanOrEqual(SIGNAL_DEAD_MS);
  });

  it('with nothing to receive, an overdue ping alone decides; an answer in time keeps the socket', async () => {
    const { watch, log, advance } = watchSetup(() => null);
    await advance(SIGNAL_PING_MS + SIGNAL_OVERDUE_MS - 100);
    watch.heard();
    await advance(MEDIA_QUIET_MS + 100);
    expect(deaths(log)).toEqual([]);
    await advance(SIGNAL_PING_MS + SIGNAL_OVERDUE_MS + MEDIA_QUIET_MS);
    expect(deaths(log)).toHaveLength(1);
  });

  it('judges nothing on the turn after its page was stalled: the answers waiting behind the timers keep the socket', async () => {
    // No media moves (a starved page's counters stand still too): an on-time overdue ping would end the socket.
    const { watch, log, advance, stall } = watchSetup(() => 1000);
    for (const busy of [SIGNAL_OVERDUE_MS + PAGE_STALL_MS, SIGNAL_DEAD_MS + 1_000]) {
      await advance(SIGNAL_PING_MS); // a ping goes out
      stall(busy);
      await advance(0); // the late timers run first, then the queued answer
      watch.heard();
      for (let beat = 0; beat < 3; beat++) {
        await advance(SIGNAL_PING_MS);
        watch.heard();
      }
    }
    expect(deaths(log)).toEqual([]);
    // On time again, an unanswered ping with no media decides as before.
    await advance(SIGNAL_PING_MS + SIGNAL_OVERDUE_MS + MEDIA_QUIET_MS);
    expect(deaths(log)).toHaveLength(1);
  });

  it('gives a silent socket up on a page stalled over and over, after twice the long silence', async () => {
    const { log, advance, stall, at } = watchSetup(() => 1000);
    while (deaths(log).length === 0 && at() < 60_000) {
      stall(SIGNAL_PING_MS + PAGE_STALL_MS);
      await advance(0);
    }
    expect(at()).toBeGreaterThanOrEqual(2 * SIGNAL_DEAD_MS);
    expect(at()).toBeLessThan(2 * SIGNAL_DEAD_MS + 2 * (SIGNAL_PING_MS + PAGE_STALL_MS));
  });

  it('gives a socket up when nothing arrives while the page still sends (a dead path), not when its own sending stood still too (a starved machine)', async () => {
    let sent = 0;
    const moving = watchSetup(() => 1000, () => (sent += 700));
    await moving.advance(SIGNAL_PING_MS + SIGNAL_OVERDUE_MS + MEDIA_QUIET_MS);
    expect(deaths(moving.log)).toHaveLength(1);

    // Received and sent both stand still, every timer on time: the page's media threads were starved, and it pings
    // again instead; only the long silence gives the socket up.
    const starved = watchSetup(() => 1000, () => 5000);
    await starved.advance(SIGNAL_DEAD_MS - 1);
    expect(deaths(starved.log)).toEqual([]);
    await starved.advance(SIGNAL_PING_MS + 1);
    expect(deaths(starved.log)).toHaveLength(1);
  });

  it('reads two readings of the media bytes as flowing, a dead path, or the page itself standing still', () => {
    const r = (received: number | null, sent: number | null) => ({ received, sent });
    expect(quietMediaVerdict(r(10, 5), r(20, 5))).toBe('flowing');
    expect(quietMediaVerdict(r(10, 5), r(10, 9))).toBe('dead');
    expect(quietMediaVerdict(r(10, null), r(10, null))).toBe('dead');
    expect(quietMediaVerdict(r(null, null), r(null, null))).toBe('dead');
    expect(quietMediaVerdict(r(null, 5), r(null, 9))).toBe('dead');
    expect(quietMediaVerdict(r(10, 5), r(10, 5))).toBe('pageStalled');
    expect(quietMediaVerdict(r(null, 5), r(null, 5))).toBe('pageStalled');
  });

  it('pings at once when ICE suspects the network, so a dead path is found a beat sooner', async () => {
    const { watch, log, advance } = watchSetup(() => 7);
    await advance(SIGNAL_PING_MS);
    watch.heard();
    await advance(100);
    watch.suspect();
    expect(log.at(-1)).toBe('1100 ping');
    await advance(SIGNAL_OVERDUE_MS + MEDIA_QUIET_MS);
    expect(deaths(log)).toEqual([`${1100 + SIGNAL_OVERDUE_MS + MEDIA_QUIET_MS} dead`]);
    watch.stop();
  });
});

describe('the address watch after a dead socket', () => {
  it('answers an address gained since the restart, not one lost or an empty answer', () => {
    expect(addressGained(['198.18.1.2'], ['198.18.1.2'])).toBe(false);
    expect(addressGained(['198.18.1.2'], ['198.18.1.102'])).toBe(true);
    expect(addressGained(['198.18.1.2'], [])).toBe(false);
    expect(addressGained([], ['198.18.1.102'])).toBe(true);
    // The restart gathered on the old address and the new one: the old one going is no reason for another.
    expect(addressGained(['198.18.1.102', '198.18.1.2'], ['198.18.1.102'])).toBe(false);
  });
});

describe('after the signalling socket was replaced', () => {
  it('reads media as having flowed only when bytes came in after the socket was given up', () => {
    expect(mediaFlowedSince(1_000, 1_200)).toBe(true);
    expect(mediaFlowedSince(1_000, 1_000)).toBe(false);
    // Fewer (a stream gone from the connection) is no proof either.
    expect(mediaFlowedSince(1_000, 900)).toBe(false);
    expect(mediaFlowedSince(null, 1_200)).toBe(false);
    expect(mediaFlowedSince(1_000, null)).toBe(false);
  });
});

describe('a forced restart', () => {
  it('restarts again while a restart of a still "connected" connection is under way (it may have gathered on the old address)', () => {
    const { r, log, t } = withIceState('connected');
    r.update('connected');
    r.restartNow();
    t.advance(1_000);
    r.restartNow();
    expect(log).toEqual(['restart', 'restart']);
    // Its own timeout then finds it connected: done, no third restart.
    t.advance(ICE_CONNECT_TIMEOUT_MS * 3);
    expect(log).toEqual(['restart', 'restart']);
  });

  it('spends none of the restarts that lead to giving up while the connection reads connected (a link cut, then an address move, seconds apart)', () => {
    const { r, log, t, set } = withIceState('connected');
    r.update('connected');
    for (let i = 0; i < ICE_MAX_RESTARTS + 2; i++) {
      r.restartNow();
      t.advance(1_000);
    }
    expect(log).toEqual(Array(ICE_MAX_RESTARTS + 2).fill('restart'));
    // A connection that is broken spends them: restarted, then given up after ICE_MAX_RESTARTS in a row.
    set('failed');
    r.update('failed');
    t.advance(ICE_CONNECT_TIMEOUT_MS * (ICE_MAX_RESTARTS + 1));
    expect(log.slice(ICE_MAX_RESTARTS + 2)).toEqual([...Array(ICE_MAX_RESTARTS).fill('restart'), 'give up']);
  });

  it('restarts for real, after the usual grace, when the connection goes "disconnected" during a precautionary restart (its path died; the restart may have gathered on the old address)', () => {
    const { r, log, t, set } = withIceState('connected');
    r.update('connected');
    r.restartNow();
    expect(log).toEqual(['restart']);
    t.advance(3_600);
    set('disconnected');
    r.update('disconnected');
    t.advance(ICE_DISCONNECTED_GRACE_MS - 1);
    expect(log).toEqual(['restart']);
    t.advance(1);
    expect(log).toEqual(['restart', 'restart']);
    // That restart is a real one: further "disconnected" on its way wait for its own timeout, as after a link cut.
    r.update('disconnected');
    t.advance(ICE_DISCONNECTED_GRACE_MS * 2);
    expect(log).toEqual(['restart', 'restart']);
    set('connected');
    r.update('connected');
    t.advance(ICE_CONNECT_TIMEOUT_MS * 3);
    expect(log).toEqual(['restart', 'restart']);
  });
});
