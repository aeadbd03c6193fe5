import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';
import { tokenFor } from '../../testing/media-call.ts';

// No Janus here (API suite): the check's own socket through Janus's echo plugin runs in e2e/media-reach.spec.ts.
const t = useTestApp('2026-11-20T09:00:00+01:00', { env: { JANUS_URL: 'ws://127.0.0.1:9', TURN_URLS: 'turn:turn.example:3478?transport=tcp', TURN_SECRET: 'hemlis' } });

const meeting = () =>
  insertMeeting(t.db, t.app.deps.pins, {
    type: 0,
    start: '2026-11-20T10:00:00+01:00',
    end: '2026-11-20T11:00:00+01:00',
    participants: [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
      { persona: 'karin', role: 'PrivateContractor' },
    ],
  });

describe('the lobby\'s connection check', () => {
  it('hands a check token with TURN credentials before any consent, keeps each participant\'s last outcome only, and shows the outcomes to the meeting\'s staff alone', async () => {
    const m = await meeting();
    const jonna = await t.as('jonna');
    const start = await jonna.post(`/api/meeting/${m.id}/connectioncheck`, {});
    expect(start.statusCode, start.body).toBe(200);
    const { token, iceServers } = start.json().data as { token: string; iceServers: { urls: string[]; username: string }[] };
    expect(iceServers[0]!.username).toMatch(new RegExp(`:${m.participantIds[1]}$`));

    // The check's token opens only a check; the call's token (which needs the consent) never opens a check.
    const session = { user: jonna.user!, token: 'x' };
    await expect(t.app.media.admitSocket(session, m.id, token, true)).resolves.toMatchObject({ claims: { k: 'check' } });
    await expect(t.app.media.admitSocket(session, m.id, token, false)).rejects.toMatchObject({ code: 'Forbidden' });
    const callToken = (await tokenFor(jonna, m.id)).json().data.tokenData.token as string;
    await expect(t.app.media.admitSocket(session, m.id, callToken, true)).rejects.toMatchObject({ code: 'Forbidden' });

    expect((await jonna.post(`/api/meeting/${m.id}/connectioncheck/result`, { result: 'failed' })).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await jonna.post(`/api/meeting/${m.id}/connectioncheck/result`, { result: 'turn' })).statusCode).toBe(200);
    const karin = await t.as('karin');
    expect((await karin.post(`/api/meeting/${m.id}/connectioncheck/result`, { result: 'direct' })).statusCode).toBe(200);

    const erik = await t.as('erik');
    const seen = await erik.get(`/api/meeting/${m.id}/connectionchecks`);
    expect(seen.statusCode, seen.body).toBe(200);
    const checks = seen.json().data as { participantId: string; result: string; checkedAt: string }[];
    expect(checks).toHaveLength(2);
    expect(checks.find((c) => c.participantId === m.participantIds[1])).toEqual({ participantId: m.participantIds[1], result: 'turn', checkedAt: '2026-11-20T08:01:00.000Z' });
    expect(checks.find((c) => c.participantId === m.participantIds[2])?.result).toBe('direct');
    // Only the outcome is kept: no address or other network detail in the table.
    const columns = await t.db.query<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'connection_checks' ORDER BY column_name");
    expect(columns.map((c) => c.column_name)).toEqual(['checked_at', 'meeting_id', 'participant_id', 'result']);

    // Participants who are not staff do not see them; staff outside the meeting cannot even tell it exists.
    expect((await jonna.get(`/api/meeting/${m.id}/connectionchecks`)).statusCode).toBe(403);
    expect((await karin.get(`/api/meeting/${m.id}/connectionchecks`)).statusCode).toBe(403);
    expect((await (await t.as('anna')).get(`/api/meeting/${m.id}/connectionchecks`)).statusCode).toBe(404);
  });

  it('refuses an unknown outcome or extra detail with the spec\'s error shape, strangers as unknown meetings with 404', async () => {
    const m = await meeting();
    const jonna = await t.as('jonna');
    for (const body of [{ result: 'fast' }, { result: 'Direct' }, {}]) {
      const res = await jonna.post(`/api/meeting/${m.id}/connectioncheck/result`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors?.[0]).toMatchObject({ fields: expect.any(Array), message: expect.any(String) });
    }
    const fredrik = await t.as('fredrik');
    expect((await fredrik.post(`/api/meeting/${m.id}/connectioncheck`, {})).statusCode).toBe(404);
    expect((await fredrik.post(`/api/meeting/${m.id}/connectioncheck/result`, { result: 'direct' })).statusCode).toBe(404);
    expect((await jonna.post('/api/meeting/00000000-0000-4000-8000-000000000000/connectioncheck', {})).statusCode).toBe(404);
  });
});
