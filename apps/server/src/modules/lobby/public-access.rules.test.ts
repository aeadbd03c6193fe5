import { describe, expect, it } from 'vitest';
import { publicAccessRefusal, swedishDate } from './public-access.rules.ts';

const at = (s: string) => new Date(s);

describe('publicAccessRefusal', () => {
  const webcast = { startTime: at('2026-11-21T14:00:00+01:00'), endTime: at('2026-11-21T15:00:00+01:00') };

  it('opens the whole day the webcast starts, before and during it', () => {
    expect(publicAccessRefusal(webcast, at('2026-11-21T00:00:00+01:00'))).toBeNull();
    expect(publicAccessRefusal(webcast, at('2026-11-21T14:30:00+01:00'))).toBeNull();
  });
  it('refuses a webcast on a later day with startTime', () => {
    expect(publicAccessRefusal(webcast, at('2026-11-20T23:59:00+01:00'))).toBe('startTime');
  });
  it('refuses once it has ended with endTime, also later the same day', () => {
    expect(publicAccessRefusal(webcast, at('2026-11-21T15:00:00+01:00'))).toBe('endTime');
    expect(publicAccessRefusal(webcast, at('2026-11-25T10:00:00+01:00'))).toBe('endTime');
  });
  it('uses the Swedish calendar day, not UTC', () => {
    // 00:30 Swedish time is still the previous day in UTC.
    const early = { startTime: at('2026-11-22T00:30:00+01:00'), endTime: at('2026-11-22T01:30:00+01:00') };
    expect(swedishDate(at('2026-11-21T23:45:00Z'))).toBe('2026-11-22');
    expect(publicAccessRefusal(early, at('2026-11-22T00:10:00+01:00'))).toBeNull();
    expect(publicAccessRefusal(early, at('2026-11-21T23:50:00+01:00'))).toBe('startTime');
  });
  it('keeps a webcast that runs past midnight open until its end', () => {
    const late = { startTime: at('2026-11-21T23:00:00+01:00'), endTime: at('2026-11-22T01:00:00+01:00') };
    expect(publicAccessRefusal(late, at('2026-11-22T00:30:00+01:00'))).toBeNull();
  });
});
