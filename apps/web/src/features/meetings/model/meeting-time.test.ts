import { describe, expect, it } from 'vitest';
import { byStartTime, canEnter, timeString, timingOf } from './meeting-time.ts';

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

describe("'Gå in i meeting'", () => {
  const mine = { ...meeting, participants: [{ currentUser: true }, { currentUser: false }] };
  it('is offered to a participant all of the meeting day, before, during and after the booked time', () => {
    for (const at of ['2026-11-19T23:00:00Z', '2026-11-20T12:00:00Z', '2026-11-20T13:30:00Z', '2026-11-20T14:30:00Z', '2026-11-20T22:59:00Z']) {
      expect(canEnter(mine, new Date(at)), at).toBe(true);
    }
  });
  it('is not offered on another day, nor to someone who is not in the meeting', () => {
    expect(canEnter(mine, new Date('2026-11-19T22:59:00Z'))).toBe(false); // 23:59 the day before, Stockholm
    expect(canEnter(mine, new Date('2026-11-20T23:00:00Z'))).toBe(false); // midnight after
    expect(canEnter({ ...meeting, participants: [{ currentUser: false }] }, new Date('2026-11-20T13:30:00Z'))).toBe(false);
  });
});

describe('byStartTime', () => {
  it('puts the earliest start first, across days and hours, and leaves the list given as it was', () => {
    const list = [{ id: 'c', startTime: '2026-11-21T08:00:00.000Z' }, { id: 'a', startTime: '2026-11-20T09:30:00.000Z' }, { id: 'b', startTime: '2026-11-20T13:00:00.000Z' }];
    expect(byStartTime(list).map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(list[0]!.id).toBe('c');
  });
});
