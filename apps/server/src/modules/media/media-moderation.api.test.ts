import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting } from '../../testing/fixtures.ts';

// Who may force-mute, checked before Janus is asked anything (no Janus here: JANUS_URL points at a closed port).
// The mute itself, through a real Janus, is in e2e/conference-moderation.spec.ts.
const t = useTestApp('2026-11-20T09:00:00+01:00', { env: { JANUS_URL: 'ws://127.0.0.1:9' } });

const meeting = () =>
  insertMeeting(t.db, t.app.deps.pins, {
    type: 0,
    start: '2026-11-20T09:00:00+01:00',
    end: '2026-11-20T10:00:00+01:00',
    participants: [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker', displayName: 'Jonna S' },
    ],
  });

describe('POST /api/media/{meetingId}/forcemute', () => {
  it('refuses a participant who is not a meeting admin (403) and a stranger (403)', async () => {
    const m = await meeting();
    const jonna = await (await t.as('jonna')).post(`/api/media/${m.id}/forcemute`, { connectionId: 'any' });
    expect(jonna.statusCode).toBe(403);
    expect(jonna.json()).toMatchObject({ statusCode: 403 });
    expect((await (await t.as('karin')).post(`/api/media/${m.id}/forcemute`, { connectionId: 'any' })).statusCode).toBe(403);
  });

  it('tells an admin when the connection is gone (404), and validates the body (400)', async () => {
    const m = await meeting();
    const erik = await t.as('erik');
    const gone = await erik.post(`/api/media/${m.id}/forcemute`, { connectionId: 'not-connected' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Anslutningen finns inte längre');
    const bad = await erik.post(`/api/media/${m.id}/forcemute`, {});
    expect(bad.statusCode).toBe(400);
  });

  it('needs a session (401)', async () => {
    const m = await meeting();
    expect((await t.anonymous().post(`/api/media/${m.id}/forcemute`, { connectionId: 'x' })).statusCode).toBe(401);
  });
});
