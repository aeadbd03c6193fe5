import { describe, expect, it } from 'vitest';
import { STATS_ERRORS } from '@videomote/contract/stats';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { findMeeting } from '../meetings/meeting-membership.ts';
import { sessionUserFromClaims } from '../identity/session-user.ts';
import { recordEndedMeetings, recordMeetingHeld } from './stats.service.ts';

const t = useTestApp('2026-11-20T15:00:00+01:00');

async function seed() {
  const held = await insertMeeting(t.db, t.app.deps.pins, {
    start: '2026-11-20T09:00:00+01:00',
    end: '2026-11-20T10:00:00+01:00',
    participants: [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
      { role: 'Interpreter', pin: '197001011233', displayName: 'Tolk' },
    ],
  });
  const webcast = await insertMeeting(t.db, t.app.deps.pins, {
    type: 1,
    start: '2026-11-18T13:00:00+01:00',
    end: '2026-11-18T14:00:00+01:00',
    participants: [{ persona: 'anna', role: 'PresenterInternal', isAdmin: true }],
  });
  // The audience count is what the conference reports when visitors leave (PUT /api/meeting/{id}/{count}).
  await t.db.query('UPDATE meetings SET count_info_participants = 42 WHERE id = $1', [webcast.id]);
  const future = await insertMeeting(t.db, t.app.deps.pins, {
    start: '2026-11-20T16:00:00+01:00',
    end: '2026-11-20T17:00:00+01:00',
    participants: [{ persona: 'erik', role: 'EmploymentOfficer', isAdmin: true }],
  });
  return { held, webcast, future };
}

const stats = async (query = '') => {
  const res = await (await t.as('anna')).get(`/api/admin/stats${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

describe('Statistik', () => {
  it('counts held meetings, participants and webcast audiences per day, not future ones, once each', async () => {
    await seed();
    const first = await stats('?from=2026-11-16&to=2026-11-22');
    const again = await stats('?from=2026-11-16&to=2026-11-22'); // the sweep runs again: still counted once
    expect(again).toEqual(first);
    expect(first.rows).toHaveLength(7);
    const day = (d: string) => first.rows.find((r: { period: string }) => r.period === d);
    expect(day('2026-11-20')).toMatchObject({ meetings: 1, webcasts: 0, participants: 3, webcastAudience: 0 });
    expect(day('2026-11-18')).toMatchObject({ meetings: 0, webcasts: 1, participants: 1, webcastAudience: 42 });
    expect(day('2026-11-19')).toMatchObject({ meetings: 0, webcasts: 0, participants: 0, ratings: 0, averageRating: null });
    expect(first.totals).toMatchObject({ period: 'Totalt', meetings: 1, webcasts: 1, participants: 4, webcastAudience: 42 });
    // Later the meeting at 16:00 is held too.
    t.clock.set('2026-11-20T17:30:00+01:00');
    expect((await stats('?from=2026-11-20&to=2026-11-20')).totals.meetings).toBe(2);
  });

  it('groups by ISO week and adds ratings with their mean', async () => {
    const { held } = await seed();
    // Three participants, one rating each (a participant rates a meeting once).
    const interpreter = sessionUserFromClaims({ sub: 'test-tolk', given_name: 'Tolk', family_name: 'Tolk', roles: 'Participant', pin: '197001011233' }, t.app.deps.pins);
    for (const [who, callQuality] of [['jonna', 2], ['erik', 5], [interpreter, 5]] as const) {
      expect((await (await t.as(who)).post('/api/meetingpoll', { callQuality, meetingId: held.id })).statusCode).toBe(200);
    }
    const weeks = await stats('?from=2026-11-09&to=2026-11-22&group=week');
    expect(weeks.rows.map((r: { period: string }) => r.period)).toEqual(['2026-W46', '2026-W47']);
    expect(weeks.rows[1]).toMatchObject({ meetings: 1, webcasts: 1, participants: 4, ratings: 3, averageRating: 4, ratingCounts: [0, 1, 0, 0, 2] });
  });

  it('keeps the figures after the retention job has purged the meetings', async () => {
    await seed();
    // Nothing swept yet: the retention hook must count the meetings inside the purge.
    t.clock.set('2026-11-21T00:30:00+01:00');
    const report = await t.app.retention.runNow();
    expect(report.meetingsPurged).toBe(3);
    expect(await t.db.query('SELECT id FROM meetings')).toEqual([]);
    const data = await stats('?from=2026-11-16&to=2026-11-22');
    expect(data.totals).toMatchObject({ meetings: 2, webcasts: 1, participants: 5, webcastAudience: 42 });
    const leftovers = await t.db.query<Record<string, unknown>>('SELECT * FROM stats_daily');
    expect(JSON.stringify(leftovers)).not.toMatch(/Jonna|Erik|1990|Tolk/);
  });

  it('recordMeetingHeld is idempotent for other callers (meetings module, retention)', async () => {
    const { held } = await seed();
    const meeting = (await findMeeting(t.db, held.id))!;
    expect(await recordMeetingHeld(t.db, meeting, 3)).toBe(true);
    expect(await recordMeetingHeld(t.db, meeting, 3)).toBe(false);
    expect(await recordEndedMeetings(t.db, t.clock.now())).toBe(1); // only the webcast is new
    expect(await recordEndedMeetings(t.db, t.clock.now())).toBe(0);
  });

  it('defaults to the last 30 days and rejects bad ranges in Swedish', async () => {
    const data = await stats();
    expect(data).toMatchObject({ from: '2026-10-22', to: '2026-11-20', group: 'day' });
    expect(data.rows).toHaveLength(30);
    const anna = await t.as('anna');
    const backwards = await anna.get('/api/admin/stats?from=2026-11-20&to=2026-11-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toEqual([{ fields: ['from', 'to'], message: STATS_ERRORS.range }]);
    const tooLong = await anna.get('/api/admin/stats?from=2024-01-01&to=2026-01-01');
    expect(tooLong.json().errors).toEqual([{ fields: ['from', 'to'], message: STATS_ERRORS.tooLong }]);
    expect((await anna.get('/api/admin/stats?from=2026-02-30&to=2026-03-01')).statusCode).toBe(400);
    expect((await anna.get('/api/admin/stats?from=igår')).statusCode).toBe(400);
    expect((await anna.get('/api/admin/stats?group=month')).statusCode).toBe(400);
  });

  it('exports CSV for spreadsheets', async () => {
    await seed();
    const res = await (await t.as('anna')).get('/api/admin/stats.csv?from=2026-11-18&to=2026-11-20');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="videomote-statistik-2026-11-18-2026-11-20.csv"');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toEqual([
      'Period;Möten;Webbsändningar;Deltagare;Publik i webbsändningar;Antal betyg;Medelbetyg;1;2;3;4;5',
      '2026-11-18;0;1;1;42;0;;0;0;0;0;0',
      '2026-11-19;0;0;0;0;0;;0;0;0;0;0',
      '2026-11-20;1;0;3;0;0;;0;0;0;0;0',
      'Totalt;1;1;4;42;0;;0;0;0;0;0',
    ]);
  });
});
