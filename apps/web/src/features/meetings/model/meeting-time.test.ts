import { describe, expect, it } from 'vitest';
import { timeString, timingOf } from './meeting-time.ts';

const meeting = { startTime: '2026-11-20T13:00:00Z', endTime: '2026-11-20T14:00:00Z', type: 0 as const }; // 14:00–15:00 Stockholm

describe('meeting card time string', () => {
  it('counts down in whole minutes, rounded up, inside 15 minutes', () => {
    expect(timeString(meeting, new Date('2026-11-20T12:45:00Z'))).toBe('Mötet startar om 15 minuter');
    expect(timeString(meeting, new Date('2026-11-20T12:59:30Z'))).toBe('Mötet startar om 1 minut');
    expect(timingOf(meeting, new Date('2026-11-20T12:44:59Z'))).toBe('today');
  });
  it('says the meeting is running, then shows the range', () => {
    expect(timeString(meeting, new Date('2026-11-20T13:00:00Z'))).toBe('Mötet pågår');
    expect(timeString(meeting, new Date('2026-11-20T08:00:00Z'))).toBe('14:00–15:00, Videomöte');
    expect(timingOf(meeting, new Date('2026-11-20T14:00:00Z'))).toBe('ended');
  });
  it('adds weekday and date when the meeting is not today', () => {
    expect(timeString({ ...meeting, type: 1 }, new Date('2026-11-19T08:00:00Z'))).toBe('fredag 2026-11-20, 14:00–15:00, Informationsmöte');
  });
});
