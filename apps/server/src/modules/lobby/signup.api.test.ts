import { describe, expect, it } from 'vitest';
import { luhnOk } from '@videomote/contract/personnummer';
import type { ParticipantRole } from '@videomote/contract/participant-roles';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting, type FixtureParticipant } from '../../testing/fixtures.ts';
import { newSignupCode } from '../meetings/signup-code.ts';
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

/** Every seeded meeting has sign-up on with this code, unless a test turns it off. */
const CODE = newSignupCode();

const seed = (type: 0 | 1, extra: FixtureParticipant[] = [], start = '2026-11-23T10:00:00+01:00', end = '2026-11-23T11:00:00+01:00', signupCode: string | null = CODE) =>
  insertMeeting(t.db, t.app.deps.pins, {
    title: type === 1 ? 'Informationsmöte' : 'Möte',
    type,
    start,
    end,
    signupCode: signupCode ?? undefined,
    participants: [{ persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true }, ...extra],
  });

/** The request body of the sign-up link with the seeded code. */
const body = (meetingId: string, extra: Record<string, unknown> = {}) => ({ meetingId, signedForm: true, code: CODE, ...extra });

describe('GET /api/meeting/validateexternaluser/{id}', () => {
  it('answers the signup info of the spec, and whether the user already is registered', async () => {
    const m = await seed(1);
    const jonna = await t.as('jonna');
    const res = await jonna.get(`/api/meeting/validateexternaluser/${m.id}?code=${CODE}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { id: m.id, startTime: '2026-11-23T09:00:00.000Z', endTime: '2026-11-23T10:00:00.000Z', type: 1, selfRegistrations: 0, currentUserRegistered: false },
    });
    await jonna.post('/api/meeting/addexternaluser', body(m.id));
    // Once in the meeting, the page works without the code too (a booked presenter's mail has the plain link).
    const after = (await jonna.get(`/api/meeting/validateexternaluser/${m.id}`)).json().data;
    expect(after).toMatchObject({ selfRegistrations: 1, currentUserRegistered: true });
  });

  it('needs a login and a known meeting', async () => {
    const m = await seed(0);
    expect((await t.anonymous().get(`/api/meeting/validateexternaluser/${m.id}`)).statusCode).toBe(401);
    const jonna = await t.as('jonna');
    const unknown = await jonna.get(`/api/meeting/validateexternaluser/9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11?code=${CODE}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ name: 'NotFound', errors: [{ fields: ['meetingId'], message: SIGNUP_ERRORS.meetingNotFound }] });
    expect((await jonna.get('/api/meeting/validateexternaluser/x')).statusCode).toBe(404);
  });
});

describe('GET /api/meeting/signuptype/{id}', () => {
  it('tells anyone the meeting type alone, for the page opened without a code; 404 for no such meeting', async () => {
    const [webcast, meeting] = [await seed(1), await seed(0)];
    const res = await t.anonymous().get(`/api/meeting/signuptype/${webcast.id}`);
    expect(res.statusCode).toBe(200);
    // Nothing but the type: no time, title, people or code.
    expect(res.json()).toEqual({ data: { type: 1 } });
    expect((await (await t.as('jonna')).get(`/api/meeting/signuptype/${meeting.id}`)).json()).toEqual({ data: { type: 0 } });
    const unknown = await t.anonymous().get('/api/meeting/signuptype/9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ name: 'NotFound', errors: [{ fields: ['meetingId'], message: SIGNUP_ERRORS.meetingNotFound }] });
    expect((await t.anonymous().get('/api/meeting/signuptype/x')).statusCode).toBe(404);
  });
});

describe('POST /api/meeting/addexternaluser', () => {
  it('registers an e-ID user as presenter of a webcast and answers the meeting without any personnummer', async () => {
    const m = await seed(1);
    const jonna = await t.as('jonna');
    const res = await jonna.post('/api/meeting/addexternaluser', body(m.id));
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
    const res = await (await t.as('karin')).post('/api/meeting/addexternaluser', body(m.id));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.participants.find((p: { currentUser: boolean }) => p.currentUser)).toMatchObject({ role: 'ExternalParticipant', displayName: 'Karin Kompletterande' });
  });

  it('requires the signed form', async () => {
    const m = await seed(1);
    const jonna = await t.as('jonna');
    for (const request of [{ meetingId: m.id, code: CODE }, body(m.id, { signedForm: false })]) {
      const res = await jonna.post('/api/meeting/addexternaluser', request);
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
    const res = await erik.post('/api/meeting/addexternaluser', body(m.id));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(SIGNUP_ERRORS.eidRequired);
    expect((await t.anonymous().post('/api/meeting/addexternaluser', body(m.id))).statusCode).toBe(401);
  });

  it('refuses a meeting that has started or ended (only future meetings are open), and unknown meetings', async () => {
    const m = await seed(1, [], '2026-11-20T08:30:00+01:00', '2026-11-20T10:00:00+01:00');
    const jonna = await t.as('jonna');
    const started = await jonna.post('/api/meeting/addexternaluser', body(m.id));
    expect(started.statusCode).toBe(403);
    expect(started.json()).toMatchObject({ message: SIGNUP_ERRORS.closed, errors: [{ fields: ['meetingId'] }] });
    t.clock.set('2026-11-21T09:00:00+01:00'); // ended; a fresh login, as yesterday's session has expired
    expect((await (await t.as('jonna')).post('/api/meeting/addexternaluser', body(m.id))).statusCode).toBe(403);
    t.clock.set('2026-11-20T09:00:00+01:00');
    const unknown = await jonna.post('/api/meeting/addexternaluser', body('9b2f6a56-1c1f-4a7e-a7d4-0c7f9e1f0b11'));
    expect(unknown.statusCode).toBe(404);
    expect((await jonna.post('/api/meeting/addexternaluser', body('nope'))).statusCode).toBe(404);
    expect((await jonna.post('/api/meeting/addexternaluser', {})).statusCode).toBe(400);
  });

  it('refuses a second registration of the same person', async () => {
    const m = await seed(0, [{ persona: 'jonna', role: 'JobSeeker' }]);
    const res = await (await t.as('jonna')).post('/api/meeting/addexternaluser', body(m.id));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(SIGNUP_ERRORS.alreadyRegistered);
  });

  it('keeps a webcast at 8 presenters; other roles do not count', async () => {
    const m = await seed(1, [...others(6, 'PresenterExternal'), ...others(3, 'ExternalParticipant', 40)]); // 7 presenters
    expect((await (await eidUser(1)).post('/api/meeting/addexternaluser', body(m.id))).statusCode).toBe(200);
    const full = await (await eidUser(2)).post('/api/meeting/addexternaluser', body(m.id));
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ name: 'Conflict', message: SIGNUP_ERRORS.webcastFull, errors: [{ fields: ['meetingId'] }] });
  });

  it('keeps a conversation meeting at 10 participants', async () => {
    const m = await seed(0, others(8, 'JobSeeker')); // 9
    expect((await (await eidUser(1)).post('/api/meeting/addexternaluser', body(m.id))).statusCode).toBe(200);
    const full = await (await eidUser(2)).post('/api/meeting/addexternaluser', body(m.id));
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(SIGNUP_ERRORS.meetingFull);
  });

  it('gives the last place to exactly one of two people registering at the same moment', async () => {
    const m = await seed(1, others(6, 'PresenterExternal')); // 7 presenters
    const [a, b] = await Promise.all([eidUser(1), eidUser(2)]);
    const results = await Promise.all([a, b].map((c) => c.post('/api/meeting/addexternaluser', body(m.id))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [meeting] = await t.db.query<{ self_registrations: number }>('SELECT self_registrations FROM meetings WHERE id = $1', [m.id]);
    expect(meeting!.self_registrations).toBe(1);
  });
});

describe('the sign-up link and its code', () => {
  const refused = { name: 'Forbidden', statusCode: 403, message: SIGNUP_ERRORS.linkInvalid, errors: [{ fields: ['signupCode'], message: SIGNUP_ERRORS.linkInvalid }] };

  it('refuses sign-up off, a missing, wrong or malformed code with one and the same answer, and adds nobody', async () => {
    const on = await seed(1);
    const off = await seed(1, [], undefined, undefined, null);
    const jonna = await t.as('jonna');
    const attempts: [string, Record<string, unknown>][] = [
      [off.id, body(off.id)],
      [off.id, body(off.id, { code: undefined })],
      [on.id, body(on.id, { code: undefined })],
      [on.id, body(on.id, { code: newSignupCode() })],
      [on.id, body(on.id, { code: `${CODE.slice(0, 21)}` })],
      [on.id, body(on.id, { code: `${CODE}'--` })],
      [on.id, body(on.id, { code: on.id })],
      [on.id, body(on.id, { code: on.roomId })],
    ];
    for (const [id, request] of attempts) {
      const res = await jonna.post('/api/meeting/addexternaluser', request);
      expect(res.statusCode, JSON.stringify(request)).toBe(403);
      expect(res.json()).toEqual(refused);
      const query = typeof request.code === 'string' ? `?code=${encodeURIComponent(request.code)}` : '';
      const info = await jonna.get(`/api/meeting/validateexternaluser/${id}${query}`);
      expect(info.statusCode).toBe(403);
      expect(info.json()).toEqual(refused);
    }
    const rows = await t.db.query('SELECT 1 FROM meeting_participants WHERE self_registered');
    expect(rows).toHaveLength(0);
  });

  it('the admin turns sign-up on, sees the coded link, renews it (old links stop working) and turns it off', async () => {
    const erik = await t.as('erik');
    const booked = await erik.post('/api/meeting', {
      title: 'Presentatörer sökes',
      type: 1,
      startTime: '2026-11-23T10:00:00+01:00',
      endTime: '2026-11-23T11:00:00+01:00',
      participants: [{ currentUser: true, role: 'PresenterInternal', isAdmin: true }],
    });
    expect(booked.statusCode, booked.body).toBe(200);
    let meeting = booked.json().data;
    expect(meeting.signupEnabled).toBe(false); // off by default
    const signupLinkOf = async () => {
      const { links } = (await erik.get(`/api/meeting/${meeting.id}/invitations`)).json().data as { links: { label: string; url: string }[] };
      const link = links.find((l) => l.label === 'Länk för självregistrering');
      return link ? new URL(link.url) : null;
    };
    expect(await signupLinkOf()).toBeNull();
    const renewOff = await erik.post(`/api/meeting/${meeting.id}/signupcode`, {});
    expect(renewOff.statusCode).toBe(409);
    expect(renewOff.json()).toMatchObject({ errors: [{ fields: ['signupEnabled'], message: 'Självregistrering är avstängd för mötet. Slå på den när du ändrar mötet för att få en länk.' }] });

    // On: a link of its own, with a code that is neither the meeting id nor the room id.
    meeting = (await erik.put('/api/meeting', { ...meeting, signupEnabled: true })).json().data;
    expect(meeting.signupEnabled).toBe(true);
    const first = (await signupLinkOf())!;
    expect(first.pathname).toBe(`/meetings/${meeting.id}/signup`);
    const firstCode = first.searchParams.get('code')!;
    expect(firstCode).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect([meeting.id, meeting.roomId]).not.toContain(firstCode);
    // The code is only in the admin's links: not in the meeting, the lists, or anything a participant gets.
    for (const path of [`/api/meeting/${meeting.id}`, '/api/meeting/week?from=2026-11-23T00:00:00%2B01:00&to=2026-11-24T00:00:00%2B01:00']) {
      expect((await erik.get(path)).body).not.toContain(firstCode);
    }
    const [stored] = await t.db.query<{ signup_code_hash: string; signup_code_encrypted: string }>('SELECT signup_code_hash, signup_code_encrypted FROM meetings WHERE id = $1', [meeting.id]);
    expect(JSON.stringify(stored)).not.toContain(firstCode);
    // An edit that leaves the setting out keeps the code.
    meeting = (await erik.put('/api/meeting', { ...meeting, signupEnabled: undefined, title: 'Presentatörer sökes!' })).json().data;
    expect((await signupLinkOf())!.searchParams.get('code')).toBe(firstCode);

    const karin = await t.as('karin');
    expect((await karin.post('/api/meeting/addexternaluser', { meetingId: meeting.id, signedForm: true, code: firstCode })).statusCode).toBe(200);
    // Karin is in now, but she is not the admin: no links, and she cannot renew.
    expect((await karin.get(`/api/meeting/${meeting.id}/invitations`)).json().data).toEqual({ links: [], invitations: [] });
    expect((await karin.post(`/api/meeting/${meeting.id}/signupcode`, {})).statusCode).toBe(403);
    expect((await (await t.as('anna')).post(`/api/meeting/${meeting.id}/signupcode`, {})).statusCode).toBe(404);

    // Renewed: the answer is the links with the new code; the old one is refused from now on.
    const renewed = await erik.post(`/api/meeting/${meeting.id}/signupcode`, {});
    expect(renewed.statusCode).toBe(200);
    const secondCode = new URL(renewed.json().data.links.find((l: { label: string }) => l.label === 'Länk för självregistrering').url).searchParams.get('code')!;
    expect(secondCode).not.toBe(firstCode);
    expect((await signupLinkOf())!.searchParams.get('code')).toBe(secondCode);
    const fredrik = await t.as('fredrik');
    const old = await fredrik.post('/api/meeting/addexternaluser', { meetingId: meeting.id, signedForm: true, code: firstCode });
    expect(old.statusCode).toBe(403);
    expect(old.json().message).toBe(SIGNUP_ERRORS.linkInvalid);
    expect((await fredrik.get(`/api/meeting/validateexternaluser/${meeting.id}?code=${firstCode}`)).statusCode).toBe(403);
    expect((await fredrik.get(`/api/meeting/validateexternaluser/${meeting.id}?code=${secondCode}`)).statusCode).toBe(200);

    // Off: the current link stops working too, and turning it on again gives a new code, not the old one back.
    meeting = (await erik.get(`/api/meeting/${meeting.id}`)).json().data;
    meeting = (await erik.put('/api/meeting', { ...meeting, signupEnabled: false })).json().data;
    expect(meeting.signupEnabled).toBe(false);
    expect(await signupLinkOf()).toBeNull();
    expect((await fredrik.post('/api/meeting/addexternaluser', { meetingId: meeting.id, signedForm: true, code: secondCode })).statusCode).toBe(403);
    meeting = (await erik.put('/api/meeting', { ...meeting, signupEnabled: true })).json().data;
    const thirdCode = (await signupLinkOf())!.searchParams.get('code')!;
    expect([firstCode, secondCode]).not.toContain(thirdCode);
    expect((await fredrik.post('/api/meeting/addexternaluser', { meetingId: meeting.id, signedForm: true, code: thirdCode })).statusCode).toBe(200);
  });

  it('a copy keeps the setting with a code of its own', async () => {
    const m = await seed(0);
    const erik = await t.as('erik');
    const template = (await erik.get(`/api/meeting/copy/${m.id}`)).json().data;
    expect(template.signupEnabled).toBe(true);
    const copy = (await erik.post('/api/meeting', { ...template, startTime: '2026-11-24T10:00:00+01:00', endTime: '2026-11-24T11:00:00+01:00' })).json().data;
    expect(copy.signupEnabled).toBe(true);
    const code = (id: string) =>
      erik.get(`/api/meeting/${id}/invitations`).then((r) => new URL(r.json().data.links.find((l: { label: string }) => l.label === 'Länk för självregistrering').url).searchParams.get('code'));
    expect(await code(copy.id)).not.toBe(await code(m.id));
    expect(await code(m.id)).toBe(CODE);
  });
});

describe('what a self-registered person may become', () => {
  it('is marked for the admin, never made an admin, and removed like anybody else', async () => {
    const m = await seed(0);
    expect((await (await t.as('karin')).post('/api/meeting/addexternaluser', body(m.id))).statusCode).toBe(200);
    const erik = await t.as('erik');
    const meeting = (await erik.get(`/api/meeting/${m.id}`)).json().data;
    const index = meeting.participants.findIndex((p: { displayName: string }) => p.displayName === 'Karin Kompletterande');
    expect(meeting.participants[index]).toMatchObject({ selfRegistered: true, isAdmin: false, role: 'ExternalParticipant' });

    // Whatever role the admin gives her, admin she is not.
    for (const role of ['ExternalParticipant', 'PrivateContractor']) {
      const participants = meeting.participants.map((p: { id: string }, i: number) => (i === index ? { ...p, role, isAdmin: true } : p));
      const res = await erik.put('/api/meeting', { ...meeting, participants });
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toMatchObject({
        message: 'En deltagare som har registrerat sig själv kan inte vara administratör för mötet.',
        errors: [{ fields: [`participant-${index}-isAdmin`] }],
      });
    }
    // Nor by any other way into the table: the database refuses it.
    await expect(t.db.query('UPDATE meeting_participants SET is_admin = true WHERE self_registered')).rejects.toThrow(/self_registered_not_admin/);

    const removed = await erik.put('/api/meeting', { ...meeting, participants: meeting.participants.filter((_: unknown, i: number) => i !== index) });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await (await t.as('karin')).get(`/api/meeting/${m.id}`)).statusCode).toBe(404);
  });
});
