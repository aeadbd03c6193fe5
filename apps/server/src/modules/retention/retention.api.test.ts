import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../../testing/test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: testClock('2026-11-20T08:00:00+01:00') });
});
beforeEach(async () => {
  await t.reset();
  t.clock.set('2026-11-20T08:00:00+01:00');
});
afterAll(async () => t.close());

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
});
