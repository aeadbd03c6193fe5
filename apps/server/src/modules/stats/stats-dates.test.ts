import { describe, expect, it } from 'vitest';
import { addDays, dayOf, daysBetween, isoWeekOf, isValidDay } from './stats-dates.ts';

describe('stats dates', () => {
  it('puts an instant on its Swedish day, across midnight and summer time', () => {
    expect(dayOf(new Date('2026-11-20T23:30:00Z'))).toBe('2026-11-21'); // 00:30 CET
    expect(dayOf(new Date('2026-07-01T22:30:00Z'))).toBe('2026-07-02'); // 00:30 CEST
    expect(dayOf(new Date('2026-07-01T21:30:00Z'))).toBe('2026-07-01');
  });
  it('numbers ISO weeks, including the ones that belong to the neighbouring year', () => {
    expect(isoWeekOf('2026-11-20')).toBe('2026-W47');
    expect(isoWeekOf('2026-01-01')).toBe('2026-W01'); // a Thursday
    expect(isoWeekOf('2027-01-01')).toBe('2026-W53'); // a Friday: last week of 2026
    expect(isoWeekOf('2024-12-30')).toBe('2025-W01'); // a Monday
    expect(isoWeekOf('2026-11-16')).toBe('2026-W47'); // Monday of the same week
    expect(isoWeekOf('2026-11-22')).toBe('2026-W47'); // Sunday of the same week
  });
  it('adds and counts days and rejects impossible dates', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
    expect(isValidDay('2026-02-30')).toBe(false);
    expect(isValidDay('2026-02-28')).toBe(true);
  });
});
