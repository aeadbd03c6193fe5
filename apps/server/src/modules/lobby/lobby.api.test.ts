import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';

const t = useTestApp('2026-11-20T09:00:00+01:00');

const seed = (type: 0 | 1 = 0) =>
  insertMeeting(t.db, t.app.deps.pins, {
    title: 'Uppföljning',
    type,
    start: '2026-11-20T10:00:00+01:00',
    end: '2026-11-20T11:00:00+01:00',
    participants: [
      { persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true },
      ...(type === 0 ? [{ persona: 'jonna' as const, role: 'JobSeeker' as const }] : []),
    ],
  });

describe('GET /api/lobby/{id}', () => {
  it('answers a participant with the meeting type the lobby heading depends on', async () => {
    const m = await seed(0);
    for (const who of ['erik', 'jonna'] as const) {
      const res = await (await t.as(who)).get(`/api/lobby/${m.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: { id: m.id, title: 'Uppföljning', type: 0, startTime: '2026-11-20T09:00:00.000Z', endTime: '2026-11-20T10:00:00.000Z' },
      });
    }
    const w = await seed(1);
    expect((await (await t.as('erik')).get(`/api/lobby/${w.id}`)).json().data.type).toBe(1);
  });

  it('refuses somebody who is not a participant with 403', async () => {
    const m = await seed(1);
    const res = await (await t.as('jonna')).get(`/api/lobby/${m.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ name: 'Forbidden', message: 'Du är inte deltagare i det här mötet' });
  });

  it('answers 404 for an unknown or malformed meeting id, 401 without login', async () => {
    const client = await t.as('erik');
    expect((await client.get('/api/lobby/9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11')).statusCode).toBe(404);
    expect((await client.get('/api/lobby/not-a-uuid')).statusCode).toBe(404);
    const m = await seed(0);
    expect((await t.anonymous().get(`/api/lobby/${m.id}`)).statusCode).toBe(401);
  });
});

describe('DELETE /api/lobby/{id}/consent', () => {
  it('withdraws the consent: the media token is refused until the box is ticked again; strangers 403, no login 401', async () => {
    const m = await seed(0);
    const jonna = await t.as('jonna');
    expect((await jonna.post('/api/meeting/gettoken', { meetingId: m.id, consent: true })).statusCode).toBe(200);
    const withdrawn = await jonna.delete(`/api/lobby/${m.id}/consent`);
    expect([withdrawn.statusCode, withdrawn.json()]).toEqual([200, { data: null }]);
    const refused = await jonna.post('/api/meeting/gettoken', { meetingId: m.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].fields).toEqual(['consent']);
    // Withdrawing twice is no error; giving it again lets the token through.
    expect((await jonna.delete(`/api/lobby/${m.id}/consent`)).statusCode).toBe(200);
    expect((await jonna.post(`/api/lobby/${m.id}/consent`, {})).statusCode).toBe(200);
    expect((await jonna.post('/api/meeting/gettoken', { meetingId: m.id })).statusCode).toBe(200);
    // A stranger has none to withdraw.
    expect((await (await t.as('karin')).delete(`/api/lobby/${m.id}/consent`)).statusCode).toBe(403);
    expect((await t.anonymous().delete(`/api/lobby/${m.id}/consent`)).statusCode).toBe(401);
    expect((await jonna.post('/api/meeting/gettoken', { meetingId: m.id })).statusCode).toBe(200);
  });
});
