import { describe, expect, it } from 'vitest';
import { buildTestApp, testClock } from '../../testing/test-app.ts';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { insertPoll } from '../polls/polls.repository.ts';
import { recordMeetingError } from '../admin/meeting-errors.ts';

const t = useTestApp('2026-11-20T08:00:00+01:00');

const pinsOf = (meetingId: string) =>
  t.db.query<{ pin_hash: string | null; pin_encrypted: string | null; display_name: string }>(
    'SELECT pin_hash, pin_encrypted, display_name FROM meeting_participants WHERE meeting_id = $1 ORDER BY position',
    [meetingId],
  );

async function bookDay(start: string, end: string) {
  return insertMeeting(t.db, t.app.deps.pins, {
    start,
    end,
    participants: [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ],
  });
}

describe('retention', () => {
  it('keeps the personnummer until the meeting has ended, then deletes it and nothing else', async () => {
    const m = await bookDay('2026-11-20T10:00:00+01:00', '2026-11-20T11:00:00+01:00');
    const other = await bookDay('2026-11-20T14:00:00+01:00', '2026-11-20T15:00:00+01:00');
    t.clock.set('2026-11-20T10:59:00+01:00');
    await t.app.retention.runNow();
    expect((await pinsOf(m.id))[1]!.pin_hash).not.toBeNull();

    t.clock.set('2026-11-20T11:00:00+01:00');
    const report = await t.app.retention.runNow();
    expect(report).toMatchObject({ ran: true, pinsCleared: 1, meetingsPurged: 0 });
    const rows = await pinsOf(m.id);
    expect(rows[1]).toEqual({ pin_hash: null, pin_encrypted: null, display_name: 'Jonna Sökande' });
    expect((await pinsOf(other.id))[1]!.pin_hash).not.toBeNull();
    // Idempotent: a second run changes nothing.
    expect(await t.app.retention.runNow()).toMatchObject({ pinsCleared: 0, meetingsPurged: 0 });
  });

  it('deletes the booking at midnight Swedish time of the meeting day, after the hooks saw it', async () => {
    const m = await bookDay('2026-11-20T22:00:00+01:00', '2026-11-20T23:30:00+01:00');
    const tomorrow = await bookDay('2026-11-21T09:00:00+01:00', '2026-11-21T10:00:00+01:00');
    const seen: string[][] = [];
    const forgotten: string[][] = [];
    t.app.retention.beforeMeetingsPurged.push(async (tx, ids) => {
      const rows = await tx.query<{ id: string }>('SELECT id FROM meetings WHERE id = ANY($1::uuid[])', [ids]);
      seen.push(rows.map((r) => r.id));
    });
    t.app.retention.afterMeetingsPurged.push((ids) => void forgotten.push(ids));

    // 23:59 Stockholm (22:59 UTC, already the next day nowhere that matters): still kept.
    t.clock.set('2026-11-20T23:59:00+01:00');
    expect(await t.app.retention.runNow()).toMatchObject({ meetingsPurged: 0 });
    // 00:00 Stockholm is 23:00 UTC of the same date: the day boundary must be Swedish, not UTC.
    t.clock.set('2026-11-21T00:00:00+01:00');
    expect(await t.app.retention.runNow()).toMatchObject({ meetingsPurged: 1 });
    expect(seen).toEqual([[m.id]]);
    expect(forgotten).toEqual([[m.id]]);
    expect(await t.db.query('SELECT id FROM meetings WHERE id = $1', [m.id])).toEqual([]);
    expect(await t.db.query('SELECT id FROM meeting_participants WHERE meeting_id = $1', [m.id])).toEqual([]);
    expect(await t.db.query('SELECT id FROM meetings WHERE id = $1', [tomorrow.id])).toHaveLength(1);
    t.app.retention.beforeMeetingsPurged.length = 0;
    t.app.retention.afterMeetingsPurged.length = 0;
  });

  it('deletes a meeting’s recorded errors (Felsökning) with its booking at midnight, and nothing else', async () => {
    const m = await bookDay('2026-11-20T10:00:00+01:00', '2026-11-20T11:00:00+01:00');
    const tomorrow = await bookDay('2026-11-21T09:00:00+01:00', '2026-11-21T10:00:00+01:00');
    const at = new Date('2026-11-20T10:30:00+01:00');
    await recordMeetingError(t.db, { meetingId: m.id, source: 'media', code: 'janus-publish-failed', message: 'Janus: 433 Unauthorized', at });
    await recordMeetingError(t.db, { meetingId: m.id, source: 'client', code: 'connectionFailed', message: 'ICE failed', at });
    await recordMeetingError(t.db, { meetingId: tomorrow.id, source: 'chat', code: 'flood', message: 'Chattanslutning stängd', at });
    await insertPoll(t.db, { meetingId: m.id, callQuality: 3, comment: null, at });
    const errorsOf = (id: string) => t.db.query<{ code: string }>('SELECT code FROM meeting_errors WHERE meeting_id = $1 ORDER BY id', [id]);

    // The meeting has ended but its day has not: the errors stay for Felsökning.
    t.clock.set('2026-11-20T23:59:00+01:00');
    await t.app.retention.runNow();
    expect((await errorsOf(m.id)).map((r) => r.code)).toEqual(['janus-publish-failed', 'connectionFailed']);

    t.clock.set('2026-11-21T00:00:00+01:00');
    expect(await t.app.retention.runNow()).toMatchObject({ meetingsPurged: 1 });
    expect(await errorsOf(m.id)).toEqual([]);
    // Nothing else: the other meeting with its errors and participants, and the anonymous rating.
    expect((await errorsOf(tomorrow.id)).map((r) => r.code)).toEqual(['flood']);
    expect(await pinsOf(tomorrow.id)).toHaveLength(2);
    expect(await t.db.query('SELECT call_quality FROM meeting_polls WHERE meeting_id = $1', [m.id])).toEqual([{ call_quality: 3 }]);
  });

  it('runs once at a time when two processes try together', async () => {
    await bookDay('2026-11-19T10:00:00+01:00', '2026-11-19T11:00:00+01:00');
    const results = await Promise.all([t.app.retention.runNow(), t.app.retention.runNow()]);
    expect(results.reduce((n, r) => n + r.meetingsPurged, 0)).toBe(1);
  });

  it('purges expired sessions', async () => {
    const client = await t.as('erik');
    t.clock.advance(61 * 60_000);
    expect(await t.app.retention.runNow()).toMatchObject({ sessionsPurged: 1 });
    expect((await client.get('/api/login/getuserdata')).statusCode).toBe(401);
  });

  it('deletes a rating comment after the configured days (default 90), keeping the rating and the statistics', async () => {
    expect(t.app.deps.config.ratingCommentDays).toBe(90);
    const m = await bookDay('2026-11-20T10:00:00+01:00', '2026-11-20T11:00:00+01:00');
    t.clock.set('2026-11-20T11:05:00+01:00');
    const jonna = await t.as('jonna');
    const rated = await jonna.post('/api/meetingpoll', { meetingId: m.id, callQuality: 2, comment: 'Ljudet bröt hela tiden, ring mig på 070-123 45 67' });
    expect(rated.statusCode, rated.body).toBe(200);
    // A later rating of another meeting (stored directly: that meeting is long gone by then) whose comment must stay.
    const laterMeeting = '00000000-0000-4000-8000-0000000000aa';
    await insertPoll(t.db, { meetingId: laterMeeting, callQuality: 4, comment: 'Bra bild', at: new Date('2027-01-10T12:00:00+01:00') });
    const polls = () => t.db.query<{ meeting_id: string; call_quality: number; comment: string | null }>('SELECT meeting_id, call_quality, comment FROM meeting_polls ORDER BY created_at');
    const stats = () => t.db.query<{ day: unknown; rating_2: number }>('SELECT day, rating_1, rating_2, rating_3, rating_4, rating_5 FROM stats_daily ORDER BY day');
    const statsBefore = await stats();
    expect(statsBefore.reduce((n, r) => n + r.rating_2, 0)).toBe(1);

    // One minute short of 90 days: kept.
    t.clock.set(new Date(new Date('2026-11-20T11:05:00+01:00').getTime() + 90 * 86_400_000 - 60_000));
    expect(await t.app.retention.runNow()).toMatchObject({ ratingCommentsCleared: 0 });
    expect((await polls())[0]!.comment).toContain('Ljudet bröt');

    t.clock.advance(60_000);
    expect(await t.app.retention.runNow()).toMatchObject({ ratingCommentsCleared: 1 });
    expect(await polls()).toEqual([
      { meeting_id: m.id, call_quality: 2, comment: null },
      { meeting_id: laterMeeting, call_quality: 4, comment: 'Bra bild' },
    ]);
    // The anonymous daily rating statistics are what they were (the meeting itself was purged long ago).
    expect(await stats()).toEqual(statsBefore);
    expect(await t.app.retention.runNow()).toMatchObject({ ratingCommentsCleared: 0 });
  });

  it('deletes an accessibility report (it may carry a contact) after the configured days, default 90', async () => {
    expect(t.app.deps.config.accessibilityReportDays).toBe(90);
    t.clock.set('2026-11-20T11:05:00+01:00');
    const sent = await t.anonymous().post('/api/feedback/accessibility', { description: 'Knappen saknar namn', contact: 'sara@example.se' });
    expect(sent.statusCode, sent.body).toBe(201);
    t.clock.advance(30 * 86_400_000);
    expect((await t.anonymous().post('/api/feedback/accessibility', { description: 'Låg kontrast i sidfoten' })).statusCode).toBe(201);
    const reports = async () => (await t.db.query<{ description: string }>('SELECT description FROM accessibility_reports ORDER BY created_at')).map((r) => r.description);

    // One minute short of 90 days after the first: both kept.
    t.clock.set(new Date(new Date('2026-11-20T11:05:00+01:00').getTime() + 90 * 86_400_000 - 60_000));
    expect(await t.app.retention.runNow()).toMatchObject({ accessibilityReportsDeleted: 0 });
    expect(await reports()).toHaveLength(2);
    t.clock.advance(60_000);
    expect(await t.app.retention.runNow()).toMatchObject({ accessibilityReportsDeleted: 1 });
    expect(await reports()).toEqual(['Låg kontrast i sidfoten']);
    expect(JSON.stringify(await t.db.query('SELECT * FROM accessibility_reports'))).not.toContain('sara@example.se');
  });

  it('reads the report retention from ACCESSIBILITY_REPORT_RETENTION_DAYS', async () => {
    const short = await buildTestApp({ clock: testClock('2026-11-20T08:00:00+01:00'), env: { ACCESSIBILITY_REPORT_RETENTION_DAYS: '7' } });
    try {
      const send = (description: string) => short.anonymous().post('/api/feedback/accessibility', { description });
      short.clock.set('2026-11-10T08:00:00+01:00');
      expect((await send('Gammal')).statusCode).toBe(201);
      short.clock.set('2026-11-15T08:00:00+01:00');
      expect((await send('Ny')).statusCode).toBe(201);
      short.clock.set('2026-11-20T08:00:00+01:00');
      expect(await short.app.retention.runNow()).toMatchObject({ accessibilityReportsDeleted: 1 });
      expect((await short.db.query<{ description: string }>('SELECT description FROM accessibility_reports')).map((r) => r.description)).toEqual(['Ny']);
    } finally {
      await short.close();
    }
  });

  it('reads the comment retention from RATING_COMMENT_RETENTION_DAYS', async () => {
    const short = await buildTestApp({ clock: testClock('2026-11-20T08:00:00+01:00'), env: { RATING_COMMENT_RETENTION_DAYS: '7' } });
    try {
      await insertPoll(short.db, { meetingId: '00000000-0000-4000-8000-0000000000bb', callQuality: 1, comment: 'Hackigt', at: new Date('2026-11-10T08:00:00+01:00') });
      await insertPoll(short.db, { meetingId: '00000000-0000-4000-8000-0000000000bb', callQuality: 3, comment: 'Okej', at: new Date('2026-11-15T08:00:00+01:00') });
      expect(await short.app.retention.runNow()).toMatchObject({ ratingCommentsCleared: 1 });
      expect((await short.db.query<{ comment: string | null }>('SELECT comment FROM meeting_polls ORDER BY created_at')).map((r) => r.comment)).toEqual([null, 'Okej']);
    } finally {
      await short.close();
    }
  });
});
