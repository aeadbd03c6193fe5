import { describe, expect, it } from 'vitest';
import { POLL_ERRORS } from '@videomote/contract/polls';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { RANGE_MESSAGE } from './polls.service.ts';

const t = useTestApp('2026-11-20T10:30:00+01:00');

const visitorOf = (meetingId: string) => anonymousSessionUser({ subject: `anon-${meetingId}`, firstName: 'Besökare', meetingId });

async function meetings() {
  const meeting = await insertMeeting(t.db, t.app.deps.pins, {
    start: '2026-11-20T10:00:00+01:00',
    end: '2026-11-20T11:00:00+01:00',
    participants: [
      { persona: 'anna', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ],
  });
  const webcast = await insertMeeting(t.db, t.app.deps.pins, {
    type: 1,
    start: '2026-11-20T10:00:00+01:00',
    end: '2026-11-20T11:00:00+01:00',
    participants: [{ persona: 'erik', role: 'PresenterInternal', isAdmin: true }],
  });
  return { meeting, webcast };
}

const polls = () => t.db.query<{ meeting_id: string; call_quality: number; comment: string | null }>('SELECT meeting_id, call_quality, comment FROM meeting_polls ORDER BY created_at');

describe('POST /api/meetingpoll', () => {
  it('stores rating, comment and meeting id only, for a participant', async () => {
    const { meeting } = await meetings();
    const jonna = await t.as('jonna');
    const res = await jonna.post('/api/meetingpoll', { callQuality: 4, comment: '  Bra ljud  ', meetingId: meeting.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ id: expect.any(String) });
    expect(await polls()).toEqual([{ meeting_id: meeting.id, call_quality: 4, comment: 'Bra ljud' }]);
    const [row] = await t.db.query<Record<string, unknown>>('SELECT * FROM meeting_polls');
    expect(Object.keys(row!).sort()).toEqual(['call_quality', 'comment', 'created_at', 'id', 'meeting_id']); // nobody's identity
  });

  it('accepts a rating without comment, and the staff participant too', async () => {
    const { meeting } = await meetings();
    expect((await (await t.as('jonna')).post('/api/meetingpoll', { callQuality: 1, meetingId: meeting.id })).statusCode).toBe(200);
    expect((await (await t.as('anna')).post('/api/meetingpoll', { callQuality: 5, comment: '', meetingId: meeting.id })).statusCode).toBe(200);
    expect((await polls()).map((p) => [p.call_quality, p.comment])).toEqual([[1, null], [5, null]]);
  });

  it("counts an anonymous visitor of that webcast as a participant, but not of another meeting", async () => {
    const { meeting, webcast } = await meetings();
    const visitor = await t.as(visitorOf(webcast.id));
    expect((await visitor.post('/api/meetingpoll', { callQuality: 3, meetingId: webcast.id })).statusCode).toBe(200);
    const other = await visitor.post('/api/meetingpoll', { callQuality: 3, meetingId: meeting.id });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ name: 'Forbidden', message: POLL_ERRORS.notParticipant, statusCode: 403 });
  });

  it('refuses non-participants (403), unknown meetings (404) and callers without session (401)', async () => {
    const { meeting } = await meetings();
    for (const who of ['erik', 'karin', 'fredrik'] as const) {
      const res = await (await t.as(who)).post('/api/meetingpoll', { callQuality: 3, meetingId: meeting.id });
      expect(res.statusCode, who).toBe(403);
    }
    const unknown = await (await t.as('jonna')).post('/api/meetingpoll', { callQuality: 3, meetingId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(POLL_ERRORS.meetingId);
    expect((await t.anonymous().post('/api/meetingpoll', { callQuality: 3, meetingId: meeting.id })).statusCode).toBe(401);
    expect(await polls()).toEqual([]);
  });

  it.each([
    ['no rating with a comment', { comment: 'Hackigt' }, 'callQuality', POLL_ERRORS.callQuality],
    ['null rating', { callQuality: null }, 'callQuality', POLL_ERRORS.callQuality],
    ['rating 0', { callQuality: 0 }, 'callQuality', RANGE_MESSAGE],
    ['rating 6', { callQuality: 6 }, 'callQuality', RANGE_MESSAGE],
    ['rating 2.5', { callQuality: 2.5 }, 'callQuality', RANGE_MESSAGE],
    ['rating as text', { callQuality: 'bra' }, 'callQuality', RANGE_MESSAGE],
    ['comment of 4001 characters', { callQuality: 3, comment: 'x'.repeat(4001) }, 'comment', POLL_ERRORS.commentTooLong],
    ['no meeting id', { callQuality: 3, meetingId: undefined }, 'meetingId', POLL_ERRORS.meetingId],
    ['malformed meeting id', { callQuality: 3, meetingId: "1' OR '1'='1" }, 'meetingId', POLL_ERRORS.meetingId],
  ])('rejects %s with 400 and a Swedish message', async (_name, patch, field, message) => {
    const { meeting } = await meetings();
    const res = await (await t.as('jonna')).post('/api/meetingpoll', { meetingId: meeting.id, ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ name: 'ValidationError', statusCode: 400, errors: [{ fields: [field], message }] });
    expect(await polls()).toEqual([]);
  });

  it('accepts exactly 4000 characters and the range ends 1 and 5', async () => {
    const { meeting } = await meetings();
    const jonna = await t.as('jonna');
    expect((await jonna.post('/api/meetingpoll', { callQuality: 1, comment: 'x'.repeat(4000), meetingId: meeting.id })).statusCode).toBe(200);
    expect((await (await t.as('anna')).post('/api/meetingpoll', { callQuality: 5, meetingId: meeting.id })).statusCode).toBe(200);
  });

  it('adds the rating to the day it was given in the anonymous statistics', async () => {
    const { meeting } = await meetings();
    const jonna = await t.as('jonna');
    await jonna.post('/api/meetingpoll', { callQuality: 2, meetingId: meeting.id });
    await (await t.as('anna')).post('/api/meetingpoll', { callQuality: 5, meetingId: meeting.id });
    const [day] = await t.db.query<Record<string, number>>("SELECT rating_2, rating_5 FROM stats_daily WHERE day = '2026-11-20'");
    expect(day).toEqual({ rating_2: 1, rating_5: 1 });
  });

  it('takes one rating per participant per meeting: a second one is a 409 with a clear message, from any session', async () => {
    const { meeting, webcast } = await meetings();
    const jonna = await t.as('jonna');
    expect((await jonna.post('/api/meetingpoll', { callQuality: 2, comment: 'Hackigt', meetingId: meeting.id })).statusCode).toBe(200);
    // The same tab again, and the same person logged in anew (another session, same booking row).
    for (const again of [jonna, await t.as('jonna')]) {
      const res = await again.post('/api/meetingpoll', { callQuality: 5, meetingId: meeting.id });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ name: 'Conflict', message: POLL_ERRORS.alreadyRated, statusCode: 409 });
    }
    // Each webcast visitor rates once too; another visitor still may.
    const visitor = await t.as(visitorOf(webcast.id));
    expect((await visitor.post('/api/meetingpoll', { callQuality: 4, meetingId: webcast.id })).statusCode).toBe(200);
    expect((await visitor.post('/api/meetingpoll', { callQuality: 1, meetingId: webcast.id })).statusCode).toBe(409);
    const another = await t.as(anonymousSessionUser({ subject: 'anon-another', firstName: 'Besökare', meetingId: webcast.id }));
    expect((await another.post('/api/meetingpoll', { callQuality: 3, meetingId: webcast.id })).statusCode).toBe(200);
    // Only the first ratings count, in the summary and the statistics.
    expect((await polls()).map((p) => [p.meeting_id, p.call_quality])).toEqual([[meeting.id, 2], [webcast.id, 4], [webcast.id, 3]]);
    const [day] = await t.db.query<Record<string, number>>("SELECT rating_1, rating_2, rating_3, rating_4, rating_5 FROM stats_daily WHERE day = '2026-11-20'");
    expect(day).toEqual({ rating_1: 0, rating_2: 1, rating_3: 1, rating_4: 1, rating_5: 0 });
    // Who rated is kept apart from the ratings: nothing joins a voter to a rating row.
    const [voter] = await t.db.query<Record<string, unknown>>('SELECT * FROM meeting_poll_voters LIMIT 1');
    expect(Object.keys(voter!).sort()).toEqual(['meeting_id', 'voter']);
  });
});
