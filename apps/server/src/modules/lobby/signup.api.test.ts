import { describe, expect, it } from 'vitest';
import { luhnOk } from '@videomote/contract/personnummer';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting, type FixtureParticipant } from '../../testing/fixtures.ts';
import { sessionUserFromClaims } from '../identity/session-user.ts';
import { SIGNUP_ERRORS } from './signup.service.ts';

const t = useTestApp('2026-11-20T09:00:00+01:00');

/** A Luhn-valid personnummer born 1980-01-01 with serial n (0-99). */
function pin(n: number): string {
  const base = `800101${String(n).padStart(2, '0')}1`;
  for (let d = 0; d < 10; d++) if (luhnOk(base + d)) return `19${base}${d}`;
  throw new Error('unreachable');
}

const eidUser = (n: number) =>
  t.as(sessionUserFromClaims({ sub: `eid-${n}`, given_name: 'Person', family_name: String(n), roles: 'Participant', pin: pin(n) }, t.app.deps.pins));

const others = (count: number, role: ParticipantRole, from = 10): FixtureParticipant[] =>
  Array.from({ length: count }, (_, i) => ({ pin: pin(from + i), role, displayName: `P${i}` }));

const seed = (type: 0 | 1, extra: FixtureParticipant[] = [], start = '2026-11-23T10:00:00+01:00', end = '2026-11-23T11:00:00+01:00') =>
  insertMeeting(t.db, t.app.deps.pins, {
    title: type === 1 ? 'Informationsmöte' : 'Möte',
    type,
    start,
    end,
    participants: [{ persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true }, ...extra],
  });

describe('GET /api/meeting/validateexternaluser/{id}', () => {
  it('answers the signup info of the spec, and whether the user already is registered', async () => {
    const m = await seed(1);
    const jonna = await t.as('jonna');
    const res = await jonna.get(`/api/meeting/validateexternaluser/${m.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { id: m.id, startTime: '2026-11-23T09:00:00.000Z', endTime: '2026-11-23T10:00:00.000Z', type: 1, selfRegistrations: 0, currentUserRegistered: false },
    });
    await jonna.post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true });
    const after = (await jonna.get(`/api/meeting/validateexternaluser/${m.id}`)).json().data;
    expect(after).toMatchObject({ selfRegistrations: 1, currentUserRegistered: true });
  });

  it('needs a login and a known meeting', async () => {
    const m = await seed(0);
    expect((await t.anonymous().get(`/api/meeting/validateexternaluser/${m.id}`)).statusCode).toBe(401);
    const jonna = await t.as('jonna');
    const unknown = await jonna.get('/api/meeting/validateexternaluser/9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ name: 'NotFound', errors: [{ fields: ['meetingId'], message: SIGNUP_ERRORS.meetingNotFound }] });
    expect((await jonna.get('/api/meeting/validateexternaluser/x')).statusCode).toBe(404);
  });
});

describe('POST /api/meeting/addexternaluser', () => {
  it('registers an e-ID user as presenter of a webcast and answers the meeting without any personnummer', async () => {
    const m = await seed(1);
    const jonna = await t.as('jonna');
    const res = await jonna.post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ id: m.id, type: 1, selfRegistrations: 1, version: 2, roomId: m.roomId });
    expect(data.participants).toHaveLength(2);
    expect(data.participants[1]).toMatchObject({ role: 'PresenterExternal', displayName: 'Jonna Sökande', currentUser: true, isAdmin: false, isParticipant: true });
    expect(data.participants[0].currentUser).toBe(false);
    // Jonna's personnummer in none of its written forms (a generic digit-run check would match random UUIDs).
    for (const form of ['199001012385', '9001012385', '19900101-2385', '900101-2385']) expect(res.body).not.toContain(form);
    const [row] = await t.db.query<{ self_registered: boolean; position: number; pin_hash: string }>(
      'SELECT self_registered, position, pin_hash FROM meeting_participants WHERE meeting_id = $1 AND af_id IS NULL',
      [m.id],
    );
    expect(row).toMatchObject({ self_registered: true, position: 1, pin_hash: t.app.deps.pins.hash('199001012385') });
  });

  it('registers into a conversation meeting as an external participant', async () => {
    const m = await seed(0);
    const res = await (await t.as('karin')).post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.participants.find((p: { currentUser: boolean }) => p.currentUser)).toMatchObject({ role: 'ExternalParticipant', displayName: 'Karin Kompletterande' });
  });

  it('requires the signed form', async () => {
    const m = await seed(1);
    const jonna = await t.as('jonna');
    for (const body of [{ meetingId: m.id }, { meetingId: m.id, signedForm: false }]) {
      const res = await jonna.post('/api/meeting/addexternaluser', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        name: 'ValidationError',
        message: 'Du behöver godkänna hanteringen av personuppgifter.',
        statusCode: 400,
        errors: [{ fields: ['signedForm'], message: 'Du behöver godkänna hanteringen av personuppgifter.' }],
      });
    }
    expect((await t.db.query('SELECT 1 FROM meeting_participants WHERE meeting_id = $1', [m.id])).length).toBe(1);
  });

  it('requires an e-ID login: staff and visitors cannot register, nor anybody without a session', async () => {
    const m = await seed(1);
    const erik = await t.as('anna');
    const res = await erik.post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(SIGNUP_ERRORS.eidRequired);
    expect((await t.anonymous().post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true })).statusCode).toBe(401);
  });

  it('refuses a meeting that has started or ended (only future meetings are open), and unknown meetings', async () => {
    const m = await seed(1, [], '2026-11-20T08:30:00+01:00', '2026-11-20T10:00:00+01:00');
    const jonna = await t.as('jonna');
    const started = await jonna.post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true });
    expect(started.statusCode).toBe(403);
    expect(started.json()).toMatchObject({ message: SIGNUP_ERRORS.closed, errors: [{ fields: ['meetingId'] }] });
    t.clock.set('2026-11-21T09:00:00+01:00'); // ended; a fresh login, as yesterday's session has expired
    expect((await (await t.as('jonna')).post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true })).statusCode).toBe(403);
    t.clock.set('2026-11-20T09:00:00+01:00');
    const unknown = await jonna.post('/api/meeting/addexternaluser', { meetingId: '9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11', signedForm: true });
    expect(unknown.statusCode).toBe(404);
    expect((await jonna.post('/api/meeting/addexternaluser', { meetingId: 'nope', signedForm: true })).statusCode).toBe(404);
    expect((await jonna.post('/api/meeting/addexternaluser', {})).statusCode).toBe(400);
  });

  it('refuses a second registration of the same person', async () => {
    const m = await seed(0, [{ persona: 'jonna', role: 'JobSeeker' }]);
    const res = await (await t.as('jonna')).post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SIGNUP_ERRORS.alreadyRegistered);
  });

  it('keeps a webcast at 8 presenters; other roles do not count', async () => {
    const m = await seed(1, [...others(6, 'PresenterExternal'), ...others(3, 'ExternalParticipant', 40)]); // 7 presenters
    expect((await (await eidUser(1)).post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true })).statusCode).toBe(200);
    const full = await (await eidUser(2)).post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ name: 'Conflict', message: SIGNUP_ERRORS.webcastFull, errors: [{ fields: ['meetingId'] }] });
  });

  it('keeps a conversation meeting at 10 participants', async () => {
    const m = await seed(0, others(8, 'JobSeeker')); // 9
    expect((await (await eidUser(1)).post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true })).statusCode).toBe(200);
    const full = await (await eidUser(2)).post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(SIGNUP_ERRORS.meetingFull);
  });

  it('gives the last place to exactly one of two people registering at the same moment', async () => {
    const m = await seed(1, others(6, 'PresenterExternal')); // 7 presenters
    const [a, b] = await Promise.all([eidUser(1), eidUser(2)]);
    const results = await Promise.all([a, b].map((c) => c.post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [meeting] = await t.db.query<{ self_registrations: number }>('SELECT self_registrations FROM meetings WHERE id = $1', [m.id]);
    expect(meeting!.self_registrations).toBe(1);
  });
});
