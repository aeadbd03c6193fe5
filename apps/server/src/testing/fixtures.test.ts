import { describe, expect, it } from 'vitest';
import { runningMeetingTimes } from './fixtures.ts';

describe('runningMeetingTimes', () => {
  it('is ten minutes before to an hour after in the middle of a Stockholm day', () => {
    const now = new Date('2026-11-26T11:00:00Z');
    expect(runningMeetingTimes(now)).toEqual({ start: new Date('2026-11-26T10:50:00Z'), end: new Date('2026-11-26T12:00:00Z') });
  });

  it('ends at 23:59 Stockholm time rather than after midnight (winter and summer time)', () => {
    expect(runningMeetingTimes(new Date('2026-11-26T22:40:00Z')).end).toEqual(new Date('2026-11-26T22:59:00Z'));
    expect(runningMeetingTimes(new Date('2026-07-01T21:30:00Z')).end).toEqual(new Date('2026-07-01T21:59:00Z'));
  });

  it('starts at midnight Stockholm time rather than the day before', () => {
    expect(runningMeetingTimes(new Date('2026-11-26T23:05:00Z')).start).toEqual(new Date('2026-11-26T23:00:00Z'));
  });
});
