import { describe, expect, it } from 'vitest';
import { ActivityClock, inactivityStatus } from './inactivity.ts';

const MIN = 60_000;

describe('inactivityStatus', () => {
  it('rounds minutes up and warns from 5 minutes left', () => {
    expect(inactivityStatus(10 * MIN)).toEqual({ msLeft: 10 * MIN, minutesLeft: 10, showWarning: false, expired: false });
    expect(inactivityStatus(5 * MIN + 1)).toMatchObject({ minutesLeft: 6, showWarning: false });
    expect(inactivityStatus(5 * MIN)).toMatchObject({ minutesLeft: 5, showWarning: true });
    expect(inactivityStatus(1)).toMatchObject({ minutesLeft: 1, showWarning: true, expired: false });
  });
  it('expires at 0', () => {
    expect(inactivityStatus(0)).toEqual({ msLeft: 0, minutesLeft: 0, showWarning: false, expired: true });
    expect(inactivityStatus(-5)).toMatchObject({ expired: true, minutesLeft: 0 });
  });
});

describe('ActivityClock', () => {
  it('counts from when a new APILastCall value was seen, whatever the server clock says', () => {
    const t0 = 1_000_000;
    // The server clock is an hour behind the browser: irrelevant.
    const clock = new ActivityClock(60, String(t0 - 3_600_000), t0);
    expect(clock.check(String(t0 - 3_600_000), t0 + 54 * MIN)).toMatchObject({ minutesLeft: 6, showWarning: false });
    expect(clock.check(String(t0 - 3_600_000), t0 + 55 * MIN)).toMatchObject({ minutesLeft: 5, showWarning: true });
    // An API call (any tab) moves the cookie: the countdown restarts.
    expect(clock.check('other', t0 + 56 * MIN)).toMatchObject({ minutesLeft: 60, showWarning: false });
    expect(clock.check('other', t0 + 116 * MIN)).toMatchObject({ expired: true });
  });
});
