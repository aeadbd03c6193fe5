import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { luhnOk } from '@videomote/contract/personnummer';
import type { TestClient } from '../../testing/test-app.ts';
import { useTestApp } from '../../testing/use-test-app.ts';

const NOW = '2026-11-20T09:00:00+01:00'; // a Friday, Stockholm winter time
const t = useTestApp(NOW);

const JONNA_PIN = '19900101-2385';
/** A Luhn-valid personnummer for a birth date (the interpreter of the tests). */
function pinFor(yyyymmdd: string, serial = '123'): string {
  for (let d = 0; d < 10; d++) if (luhnOk(yyyymmdd.slice(2) + serial + d)) return `${yyyymmdd}-${serial}${d}`;
  throw new Error('unreachable');
}
const TOLK_PIN = pinFor('19800505');
/** 1990-01-01 as a coordination number (day + 60) with a valid check digit. */
const COORDINATION = pinFor('19900161', '238');

const me = { currentUser: true, role: 'EmploymentOfficer', isAdmin: true };
const jonna = { role: 'JobSeeker', displayName: 'Jonna Sökande', pin: JONNA_PIN };
const tolk = { role: 'Interpreter', displayName: 'Tolk T', pin: TOLK_PIN };

function booking(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Planeringssamtal',
    type: 0,
    startTime: '2026-11-20T14:00:00+01:00',
    endTime: '2026-11-20T15:00:00+01:00',
    participants: [me, jonna, tolk],
    ...overrides,
  };
}

async function book(client: TestClient, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/api/meeting', booking(overrides));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const messagesOf = (res: { json(): { errors?: { fields: string[]; message: string }[] } }) =>
  (res.json().errors ?? []).map((e) => `${e.fields[0]}: ${e.message}`);

describe('create and read', () => {
  it('books a sign-language interpreter (Teckentolk) in a conversation meeting, not in a webcast', async () => {
    const erik = await t.as('erik');
    const teckentolk = { role: 'SignLanguageInterpreter', displayName: 'Tina Teckentolk', pin: pinFor('19850303') };
    const m = await book(erik, { participants: [me, jonna, teckentolk] });
    expect(m.participants.map((p: { role: string }) => p.role)).toEqual(['EmploymentOfficer', 'JobSeeker', 'SignLanguageInterpreter']);
    const webcast = await erik.post('/api/meeting', booking({ type: 1, participants: [{ currentUser: true, role: 'PresenterInternal' }, teckentolk] }));
    expect(webcast.statusCode).toBe(400);
  });

  it('books a text interpreter (Skrivtolk) in both meeting types, at most two, also for a KA user', async () => {
    const erik = await t.as('erik');
    const skrivtolk = (n: number) => ({ role: 'TextInterpreter', displayName: `Sara Skrivtolk ${n}`, pin: pinFor('19850404', `12${n}`) });
    const m = await book(erik, { participants: [me, jonna, skrivtolk(1)] });
    expect(m.participants.map((p: { role: string }) => p.role)).toEqual(['EmploymentOfficer', 'JobSeeker', 'TextInterpreter']);
    const webcast = await book(erik, { type: 1, participants: [{ currentUser: true, role: 'PresenterInternal' }, skrivtolk(1), skrivtolk(2)] });
    expect(webcast.participants.map((p: { role: string }) => p.role)).toEqual(['PresenterInternal', 'TextInterpreter', 'TextInterpreter']);
    const three = await erik.post('/api/meeting', booking({ participants: [me, jonna, skrivtolk(1), skrivtolk(2), skrivtolk(3)] }));
    expect([three.statusCode, messagesOf(three)]).toEqual([400, ['participants: Ett möte kan ha högst 2 skrivtolkar']]);
    const karin = await t.as('karin');
    const byKa = await karin.post('/api/meeting', booking({ participants: [{ currentUser: true, role: 'PrivateContractor', isAdmin: true }, jonna, skrivtolk(1)] }));
    expect(byKa.statusCode, byKa.body).toBe(200);
  });

  it('books a meeting: the booker is admin, the room id is random and long, personnummer never in clear', async () => {
    const erik = await t.as('erik');
    const m = await book(erik);
    expect(m).toMatchObject({ title: 'Planeringssamtal', type: 0, version: 1, currentUserIsAdmin: true });
    expect(m.startTime).toBe('2026-11-20T13:00:00.000Z');
    expect(m.roomId).toMatch(/^[A-Za-z0-9_-]{24}$/); // 18 random bytes = 144 bits
    expect(m.participants.map((p: { role: string }) => p.role)).toEqual(['EmploymentOfficer', 'JobSeeker', 'Interpreter']);
    expect(m.participants[0]).toMatchObject({ currentUser: true, isAdmin: true, afId: 'erihan', displayName: 'Erik Handläggare' });
    expect(m.participants[1]).toMatchObject({ pin: '19900101-****', isAdmin: false, currentUser: false });
    for (const pin of [JONNA_PIN, TOLK_PIN]) {
      expect(JSON.stringify(m)).not.toContain(pin);
      expect(JSON.stringify(m)).not.toContain(pin.replace('-', ''));
    }
    const rows = await t.db.query<{ pin_encrypted: string }>('SELECT pin_encrypted FROM meeting_participants WHERE pin_encrypted IS NOT NULL');
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.pin_encrypted).not.toContain('19900101');

    const again = await book(erik);
    expect(again.roomId).not.toBe(m.roomId);
  });

  it('takes createdBy from the session, not from the form (booking spec §3 puts it in the payload)', async () => {
    const erik = await t.as('erik');
    const m = await book(erik, { createdBy: 'VIDAdmin' });
    // The booker's own roles: a form cannot claim another role, nor someone else, as the meeting's creator.
    expect(m.createdBy).toBe('VIDMedarbetare');
    const [row] = await t.db.query<{ created_by: string }>('SELECT created_by FROM meetings WHERE id = $1', [m.id]);
    expect(row!.created_by).toBe('VIDMedarbetare');
  });

  it('refuses a start equal to the end: a meeting of no length', async () => {
    const res = await (await t.as('erik')).post('/api/meeting', booking({ startTime: '2026-11-20T14:00:00+01:00', endTime: '2026-11-20T14:00:00+01:00' }));
    expect(res.statusCode).toBe(400);
    expect(messagesOf(res)).toContain('startTime: Starttiden för ett möte får inte vara en senare tid än sluttiden');
  });

  it('adds the booker when the form left them out, and takes staff names from the directory', async () => {
    const erik = await t.as('erik');
    const m = await book(erik, { participants: [jonna, { role: 'EmploymentOfficer', afId: 'marlin', displayName: 'ignored' }] });
    expect(m.participants.map((p: { displayName: string }) => p.displayName)).toEqual(['Erik Handläggare', 'Jonna Sökande', 'Maria Lindqvist']);
    expect(m.participants[0].isAdmin).toBe(true);
  });

  it('shows the meeting to its participants only: Jonna sees it without personnummer, Karin gets 404', async () => {
    const m = await book(await t.as('erik'));
    const jonnaClient = await t.as('jonna');
    const res = await jonnaClient.get(`/api/meeting/${m.id}`);
    expect(res.statusCode).toBe(200);
    const seen = res.json().data;
    expect(seen.currentUserIsAdmin).toBe(false);
    expect(seen.participants.every((p: { pin: unknown }) => p.pin === null)).toBe(true);
    expect(seen.participants.find((p: { currentUser: boolean }) => p.currentUser).role).toBe('JobSeeker');
    expect((await (await t.as('karin')).get(`/api/meeting/${m.id}`)).statusCode).toBe(404);
    expect((await (await t.as('anna')).get(`/api/meeting/${m.id}`)).statusCode).toBe(404);
    expect((await t.anonymous().get(`/api/meeting/${m.id}`)).statusCode).toBe(401);
    expect((await jonnaClient.get('/api/meeting/not-a-uuid')).statusCode).toBe(404);
    expect((await jonnaClient.get('/api/meeting/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('lists today and a week for each user, sorted by start', async () => {
    const erik = await t.as('erik');
    const late = await book(erik, { title: 'Sent', startTime: '2026-11-20T16:00:00+01:00', endTime: '2026-11-20T16:30:00+01:00' });
    const early = await book(erik, { title: 'Tidigt', startTime: '2026-11-20T10:00:00+01:00', endTime: '2026-11-20T10:30:00+01:00' });
    const nextWeek = await book(erik, { title: 'Nästa vecka', startTime: '2026-11-24T10:00:00+01:00', endTime: '2026-11-24T11:00:00+01:00', participants: [me] });
    const day = (await erik.get('/api/meeting/day?from=2026-11-20T00:00:00%2B01:00&to=2026-11-21T00:00:00%2B01:00')).json().data;
    expect(day.map((m: { id: string }) => m.id)).toEqual([early.id, late.id]);
    const week = (await erik.get('/api/meeting/week?from=2026-11-23T00:00:00%2B01:00&to=2026-11-30T00:00:00%2B01:00')).json().data;
    expect(week.map((m: { id: string }) => m.id)).toEqual([nextWeek.id]);

    const jonnaDay = (await (await t.as('jonna')).get('/api/meeting/day')).json().data;
    expect(jonnaDay.map((m: { id: string }) => m.id)).toEqual([early.id, late.id]);
    expect((await (await t.as('jonna')).get('/api/meeting/week?from=2026-11-23T00:00:00%2B01:00&to=2026-11-30T00:00:00%2B01:00')).json().data).toEqual([]);
    expect((await (await t.as('karin')).get('/api/meeting/day')).json().data).toEqual([]);

    const weeks = (await erik.get('/api/meetingweek')).json().data;
    expect(weeks).toEqual([{ week: 47, year: 2026 }, { week: 48, year: 2026 }]);
    const bad = await erik.get('/api/meeting/day?from=yesterday');
    expect(bad.statusCode).toBe(400);
  });
  it('lists each meeting exactly as GET /api/meeting/:id shows it, without personnummer, for admins and others', async () => {
    const erik = await t.as('erik');
    const anna = { role: 'EmploymentOfficer', afId: 'annadm', email: 'anna@example.se' };
    const m = await book(erik, { participants: [me, jonna, tolk, anna] });
    await erik.put(`/api/meeting/${m.id}/3`, { id: m.id, countInfoParticipants: 3 });
    for (const persona of ['erik', 'jonna', 'anna'] as const) {
      const client = await t.as(persona);
      const listed = (await client.get('/api/meeting/day')).json().data.find((x: { id: string }) => x.id === m.id);
      const single = (await client.get(`/api/meeting/${m.id}`)).json().data;
      const withoutPins = { ...single, participants: single.participants.map((p: object) => ({ ...p, pin: null })) };
      expect(listed, persona).toStrictEqual(withoutPins);
    }
    const eriksView = (await erik.get('/api/meeting/day')).json().data.find((x: { id: string }) => x.id === m.id);
    expect(eriksView).toMatchObject({ currentUserIsAdmin: true, countInfoParticipants: 3 });
    expect(eriksView.participants.filter((p: { email: string | null }) => p.email).length).toBeGreaterThan(0);
    const jonnasView = (await (await t.as('jonna')).get('/api/meeting/day')).json().data.find((x: { id: string }) => x.id === m.id);
    expect(jonnasView.currentUserIsAdmin).toBe(false);
    expect(jonnasView.participants.map((p: { email: string | null; currentUser: boolean }) => [p.email, p.currentUser])).toEqual([
      [null, false], [null, true], [null, false], [null, false],
    ]);
  });
});

describe('validation (spec §5), in Swedish with field ids', () => {
  it('an empty form names every missing field and that participants must be saved', async () => {
    const res = await (await t.as('erik')).post('/api/meeting', { title: '', startTime: null, endTime: null, participants: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ name: 'ValidationError', statusCode: 400 });
    expect(messagesOf(res)).toEqual([
      'title: Du behöver ange en rubrik',
      'date: Du behöver ange ett datum',
      'startTime: Du behöver ange när mötet startar',
      'endTime: Du behöver ange när mötet slutar',
      'participants: Alla deltagare måste sparas',
    ]);
  });

  it('applies the ordered checks: unsaved cards first, then a start in the past, then start after end', async () => {
    const erik = await t.as('erik');
    let res = await erik.post('/api/meeting', booking({ participants: [me, { ...jonna, editMode: true }], startTime: '2026-11-19T10:00:00+01:00' }));
    expect(messagesOf(res)).toEqual(['participants: Alla deltagare måste sparas']);
    res = await erik.post('/api/meeting', booking({ startTime: '2026-11-20T08:00:00+01:00', endTime: '2026-11-20T07:00:00+01:00' }));
    expect(messagesOf(res)).toEqual(['startTime: Starttid får inte vara ett tidigare datum än idag']);
    res = await erik.post('/api/meeting', booking({ startTime: '2026-11-20T15:00:00+01:00', endTime: '2026-11-20T14:00:00+01:00' }));
    expect(messagesOf(res)).toEqual(['startTime: Starttiden för ett möte får inte vara en senare tid än sluttiden']);
    res = await erik.post('/api/meeting', booking({ startTime: 'tomorrow' }));
    expect(res.statusCode).toBe(400);
  });

  it('checks each participant card: role, name, personnummer (Luhn, date, coordination numbers), staff id', async () => {
    const erik = await t.as('erik');
    const res = await erik.post(
      '/api/meeting',
      booking({
        participants: [
          me,
          { role: null, displayName: 'X', pin: JONNA_PIN },
          { role: 'JobSeeker', displayName: '', pin: '19900101-2384' },
          { role: 'JobSeeker', displayName: 'Samuel', pin: COORDINATION },
          { role: 'Interpreter', displayName: 'Utan nummer' },
          { role: 'EmploymentOfficer', afId: 'zzzzzz' },
        ],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(messagesOf(res)).toEqual([
      'participant-1-role: Du måste välja en roll',
      'participant-2-displayName: Fältet är ej korrekt ifyllt',
      'participant-2-pin: Fältet är ej korrekt ifyllt',
      'participant-3-pin: Samordningsnummer stöds inte',
      'participant-4-pin: Du behöver ange ett personnummer',
      'participant-5-afId: Fältet är ej korrekt ifyllt',
    ]);
  });

  it('refuses a role of the other meeting type, and the same person twice', async () => {
    const erik = await t.as('erik');
    let res = await erik.post('/api/meeting', booking({ participants: [me, { role: 'PresenterExternal', displayName: 'P', pin: JONNA_PIN }] }));
    expect(messagesOf(res)).toEqual(['participant-1-role: Rollen kan inte väljas för den här mötestypen']);
    res = await erik.post('/api/meeting', booking({ participants: [me, jonna, { ...jonna, displayName: 'Igen' }] }));
    expect(messagesOf(res)).toEqual(['participant-2-pin: Fältet är ej korrekt ifyllt']);
  });

  it('limits a meeting to 10 participants and a webcast to 8 presenters', async () => {
    const erik = await t.as('erik');
    const people = Array.from({ length: 10 }, (_, i) => ({ role: 'ExternalParticipant', displayName: `P${i}`, pin: pinFor(`1980010${(i % 9) + 1}`, `4${i}0`.slice(0, 3)) }));
    let res = await erik.post('/api/meeting', booking({ participants: [me, ...people] }));
    expect(messagesOf(res)).toEqual(['participants: Ett videomöte kan ha högst 10 deltagare']);
    expect((await erik.post('/api/meeting', booking({ participants: [me, ...people.slice(0, 9)] }))).statusCode).toBe(200);

    const presenters = people.slice(0, 8).map((p) => ({ ...p, role: 'PresenterExternal' }));
    res = await erik.post('/api/meeting', booking({ type: 1, participants: [{ ...me, role: 'PresenterInternal' }, ...presenters] }));
    expect(messagesOf(res)).toEqual(['participants: Ett informationsmöte kan ha högst 8 presentatörer']);
    expect((await erik.post('/api/meeting', booking({ type: 1, participants: [{ ...me, role: 'PresenterInternal' }, ...presenters.slice(0, 7)] }))).statusCode).toBe(200);
  });
});

describe('permissions (spec §6)', () => {
  it('create needs EditMeeting: Jonna gets 403, Karin and Fredrik may book', async () => {
    expect((await (await t.as('jonna')).post('/api/meeting', booking({ participants: [jonna] }))).statusCode).toBe(403);
    expect((await t.anonymous().post('/api/meeting', booking())).statusCode).toBe(401);
    const karin = await book(await t.as('karin'), { participants: [{ currentUser: true, role: 'PrivateContractor' }, jonna] });
    expect(karin.participants[0]).toMatchObject({ role: 'PrivateContractor', isAdmin: true, currentUser: true, displayName: 'Karin Kompletterande' });
    const fredrik = await book(await t.as('fredrik'), { type: 1, participants: [{ currentUser: true, role: 'PresenterExternal' }] });
    expect(fredrik.participants[0]).toMatchObject({ role: 'PresenterExternal', isAdmin: true });
  });

  it('KA users cannot choose the type; KA and MSFA users cannot add staff or internal presenters', async () => {
    const karin = await t.as('karin');
    expect((await karin.post('/api/meeting', booking({ type: 1, participants: [{ currentUser: true, role: 'PresenterExternal' }] }))).statusCode).toBe(403);
    const staff = { role: 'EmploymentOfficer', afId: 'erihan' };
    expect((await karin.post('/api/meeting', booking({ participants: [{ currentUser: true, role: 'PrivateContractor' }, staff] }))).statusCode).toBe(403);
    const fredrik = await t.as('fredrik');
    expect(
      (await fredrik.post('/api/meeting', booking({ type: 1, participants: [{ currentUser: true, role: 'PresenterExternal' }, { role: 'PresenterInternal', afId: 'erihan' }] }))).statusCode,
    ).toBe(403);
  });

  it('admin can be granted only to contractor, employee and internal presenter', async () => {
    const erik = await t.as('erik');
    const res = await erik.post('/api/meeting', booking({ participants: [me, { ...jonna, isAdmin: true }] }));
    expect(res.statusCode).toBe(403);
    const ok = await book(erik, { participants: [me, { role: 'EmploymentOfficer', afId: 'annadm', isAdmin: true }, { role: 'PrivateContractor', displayName: 'Lev', pin: '19700101-1233', isAdmin: true }] });
    expect(ok.participants.map((p: { isAdmin: boolean }) => p.isAdmin)).toEqual([true, true, true]);
    // A co-admin (Anna) may then edit; Fredrik as contractor admin may too.
    const anna = await t.as('anna');
    const annaView = (await anna.get(`/api/meeting/${ok.id}`)).json().data;
    expect(annaView.currentUserIsAdmin).toBe(true);
    expect((await anna.put('/api/meeting', { ...annaView, title: 'Ändrad av Anna' })).statusCode).toBe(200);
  });

  it('only meeting admins update, copy or delete; others in the meeting get 403, outsiders 404', async () => {
    const m = await book(await t.as('erik'));
    const jonnaClient = await t.as('jonna');
    expect((await jonnaClient.put('/api/meeting', { ...booking(), id: m.id, version: 1 })).statusCode).toBe(403);
    expect((await jonnaClient.get(`/api/meeting/copy/${m.id}`)).statusCode).toBe(403);
    expect((await jonnaClient.delete(`/api/meeting/${m.id}`)).statusCode).toBe(403);
    const karin = await t.as('karin');
    expect((await karin.put('/api/meeting', { ...booking(), id: m.id, version: 1, participants: [{ currentUser: true, role: 'PrivateContractor' }] })).statusCode).toBe(404);
    expect((await karin.delete(`/api/meeting/${m.id}`)).statusCode).toBe(404);
    expect((await karin.get(`/api/meeting/copy/${m.id}`)).statusCode).toBe(404);
    expect((await (await t.as('erik')).get(`/api/meeting/${m.id}`)).statusCode).toBe(200);
  });

  it('the employee search is for staff (InternalMeeting) and needs three characters', async () => {
    const erik = await t.as('erik');
    const res = await erik.get('/api/employee/eri');
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toEqual({ signatur: 'erihan', namn: 'Erik Handläggare', elektroniskAdress: 'erik.handlaggare@arbetsformedlingen.se' });
    expect((await erik.get('/api/employee/annadm')).json().data.map((e: { signatur: string }) => e.signatur)).toEqual(['annadm']);
    expect((await erik.get('/api/employee/Lindq')).json().data[0].namn).toBe('Maria Lindqvist');
    expect((await erik.get('/api/employee/er')).json().data).toEqual([]);
    expect((await (await t.as('jonna')).get('/api/employee/eri')).statusCode).toBe(403);
    // Contractors book (EditMeeting) but never add staff: the directory is not theirs to list.
    expect((await (await t.as('karin')).get('/api/employee/eri')).statusCode).toBe(403);
    expect((await (await t.as('fredrik')).get('/api/employee/eri')).statusCode).toBe(403);
  });
});

describe('update, versions and started meetings', () => {
  it('updates with the current version, keeps masked personnummer, and refuses a stale version with 409', async () => {
    const erik = await t.as('erik');
    const m = await book(erik);
    const res = await erik.put('/api/meeting', { ...m, title: 'Nytt namn' });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().data;
    expect(updated).toMatchObject({ title: 'Nytt namn', version: 2, roomId: m.roomId });
    expect(updated.participants.map((p: { id: string }) => p.id)).toEqual(m.participants.map((p: { id: string }) => p.id));
    // Jonna is still found by her personnummer, which the form sent back only as the mask.
    expect((await (await t.as('jonna')).get(`/api/meeting/${m.id}`)).statusCode).toBe(200);

    const stale = await erik.put('/api/meeting', { ...m, title: 'Gammal' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ name: 'Conflict', message: expect.stringContaining('Ladda om') });
  });

  it('of two concurrent updates of the same version exactly one wins', async () => {
    const erik = await t.as('erik');
    const anna = await t.as('anna');
    const m = await book(erik, { participants: [me, { role: 'EmploymentOfficer', afId: 'annadm', isAdmin: true }] });
    const annaView = (await anna.get(`/api/meeting/${m.id}`)).json().data;
    const results = await Promise.all([erik.put('/api/meeting', { ...m, title: 'Eriks' }), anna.put('/api/meeting', { ...annaView, title: 'Annas' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)!.json().data.title;
    const stored = (await erik.get(`/api/meeting/${m.id}`)).json().data;
    expect(stored).toMatchObject({ title: winner, version: 2 });
  });

  it('removing a participant takes the meeting away from them; the booker stays admin', async () => {
    const erik = await t.as('erik');
    const m = await book(erik);
    const res = await erik.put('/api/meeting', { ...m, participants: m.participants.filter((p: { role: string }) => p.role !== 'JobSeeker').map((p: object) => ({ ...p, isAdmin: false })) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.participants[0].isAdmin).toBe(true);
    expect((await (await t.as('jonna')).get(`/api/meeting/${m.id}`)).statusCode).toBe(404);
  });

  it('a meeting moved to another week moves in every participant\'s lists, a participant added on the way too', async () => {
    const erik = await t.as('erik');
    const jonnaClient = await t.as('jonna');
    const m = await book(erik, { startTime: '2026-11-24T10:00:00+01:00', endTime: '2026-11-24T11:00:00+01:00', participants: [me, jonna] });
    const weekOf = async (client: TestClient, monday: string, sunday: string) =>
      (await client.get(`/api/meeting/week?from=${monday}T00:00:00%2B01:00&to=${sunday}T00:00:00%2B01:00`)).json().data.map((x: { id: string }) => x.id);
    expect(await weekOf(jonnaClient, '2026-11-23', '2026-11-30')).toEqual([m.id]);

    const moved = await erik.put('/api/meeting', {
      ...m,
      startTime: '2026-12-01T10:00:00+01:00',
      endTime: '2026-12-01T11:00:00+01:00',
      participants: [...m.participants, tolk],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    for (const client of [erik, jonnaClient]) {
      expect(await weekOf(client, '2026-11-23', '2026-11-30')).toEqual([]);
      expect(await weekOf(client, '2026-11-30', '2026-12-07')).toEqual([m.id]);
    }
    const interpreter = await t.db.query<{ meeting_start: Date }>(
      `SELECT meeting_start FROM meeting_participants WHERE meeting_id = $1 AND role = 'Interpreter'`,
      [m.id],
    );
    expect(new Date(interpreter[0]!.meeting_start).toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect((await erik.get('/api/meetingweek')).json().data).toContainEqual({ week: 49, year: 2026 });
  });

  it('refuses a participant id from another meeting', async () => {
    const erik = await t.as('erik');
    const a = await book(erik);
    const b = await book(erik);
    const res = await erik.put('/api/meeting', { ...a, participants: [...a.participants, { ...b.participants[1] }] });
    expect(res.statusCode).toBe(400);
  });

  it('a started meeting keeps its date and times; other fields stay editable', async () => {
    const m = await book(await t.as('erik'));
    t.clock.set('2026-11-20T14:10:00+01:00');
    const erik = await t.as('erik'); // a fresh session: the first one expired while the clock moved
    const moved = await erik.put('/api/meeting', { ...m, startTime: '2026-11-20T15:00:00+01:00', endTime: '2026-11-20T16:00:00+01:00' });
    expect(moved.statusCode, moved.body).toBe(400);
    expect(messagesOf(moved)).toContain('date: Mötet har startat. Datum och tider kan inte ändras.');
    const renamed = await erik.put('/api/meeting', { ...m, title: 'Pågående' });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it('a saved participant needs no personnummer again, even after retention cleared it; a copy of such a one does', async () => {
    const erik = await t.as('erik');
    const m = await book(erik);
    await t.db.query('UPDATE meeting_participants SET pin_hash = NULL, pin_encrypted = NULL WHERE pin_hash IS NOT NULL');
    const fresh = (await erik.get(`/api/meeting/${m.id}`)).json().data;
    expect(fresh.participants[1].pin).toBeNull();
    const res = await erik.put('/api/meeting', { ...fresh, title: 'Efter gallring' });
    expect(res.statusCode, res.body).toBe(200);
    const template = (await erik.get(`/api/meeting/copy/${m.id}`)).json().data;
    const copy = await erik.post('/api/meeting', { ...template, startTime: '2026-11-27T10:00:00+01:00', endTime: '2026-11-27T11:00:00+01:00' });
    expect(messagesOf(copy)).toEqual(['participant-1-pin: Du behöver ange ett personnummer', 'participant-2-pin: Du behöver ange ett personnummer']);
  });

  it('compares a started meeting\'s times to the minute, as the form holds them', async () => {
    const m = await book(await t.as('erik'), { startTime: '2026-11-20T14:00:30+01:00', endTime: '2026-11-20T15:00:45+01:00' });
    t.clock.set('2026-11-20T14:10:00+01:00');
    const erik = await t.as('erik');
    const res = await erik.put('/api/meeting', { ...m, title: 'Samma tider', startTime: '2026-11-20T14:00:00+01:00', endTime: '2026-11-20T15:00:00+01:00' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('sets the count of information-meeting participants (admins only)', async () => {
    const erik = await t.as('erik');
    const m = await book(erik, { type: 1, participants: [{ ...me, role: 'PresenterInternal' }] });
    const res = await erik.put(`/api/meeting/${m.id}/42`, { id: m.id, countInfoParticipants: 42 });
    expect(res.statusCode).toBe(200);
    expect((await erik.get(`/api/meeting/${m.id}`)).json().data.countInfoParticipants).toBe(42);
    expect((await erik.put(`/api/meeting/${m.id}/41`, { id: m.id, countInfoParticipants: 42 })).statusCode).toBe(400);
  });
});

describe('copy and delete', () => {
  it('copies into a create template without ids or personnummer, and the copy keeps the people', async () => {
    const erik = await t.as('erik');
    const m = await book(erik);
    const res = await erik.get(`/api/meeting/copy/${m.id}`);
    expect(res.statusCode).toBe(200);
    const template = res.json().data;
    expect(template).toMatchObject({ id: null, roomId: null, copiedFromMeetingId: m.id, title: m.title });
    expect(template.participants.every((p: { id: unknown }) => p.id === null)).toBe(true);
    expect(template.participants[1]).toMatchObject({ pin: '19900101-****', copiedFromParticipantId: m.participants[1].id });
    const copy = await book(erik, { ...template, startTime: '2026-11-27T10:00:00+01:00', endTime: '2026-11-27T11:00:00+01:00' });
    expect(copy.id).not.toBe(m.id);
    expect(copy.roomId).not.toBe(m.roomId);
    expect((await (await t.as('jonna')).get(`/api/meeting/${copy.id}`)).statusCode).toBe(200);

    // The personnummer of a copy comes only from a meeting the booker administers.
    const karin = await t.as('karin');
    const stolen = await karin.post('/api/meeting', { ...template, participants: [{ currentUser: true, role: 'PrivateContractor' }, template.participants[1]] });
    expect(stolen.statusCode).toBe(404);
  });

  it('deletes; the meeting is then gone for everybody', async () => {
    const erik = await t.as('erik');
    const m = await book(erik);
    const res = await erik.delete(`/api/meeting/${m.id}`);
    expect(res.statusCode).toBe(200);
    expect((await erik.get(`/api/meeting/${m.id}`)).statusCode).toBe(404);
    expect((await (await t.as('jonna')).get(`/api/meeting/${m.id}`)).statusCode).toBe(404);
    expect((await erik.delete(`/api/meeting/${m.id}`)).statusCode).toBe(404);
  });
});

describe('invitations and calendar', () => {
  it('gives admins the links and one Swedish mail per participant, by audience code', async () => {
    const erik = await t.as('erik');
    const m = await book(erik);
    const { data } = (await erik.get(`/api/meeting/${m.id}/invitations`)).json();
    expect(data.links[0].url).toMatch(new RegExp(`/meetings/${m.id}/lobby$`));
    expect(data.invitations.map((i: { audience: string }) => i.audience)).toEqual(['SD', 'SD', 'NotDefined']);
    const mail = data.invitations[0];
    expect(mail.subject).toBe('Inbjudan till videomöte: Planeringssamtal');
    expect(mail.body).toContain('Datum: 2026-11-20');
    expect(mail.body).toContain('Tid: 14:00–15:00');
    // The job seeker's mail names the languages the operator offers (all, by default: WEB_LANGUAGES).
    expect(mail.body).toContain('finns också på English (engelska), العربية (arabiska), Soomaali (somaliska) och ትግርኛ (tigrinja)');
    expect(mail.mailto).toMatch(/^mailto:\?subject=Inbjudan%20till%20videom%C3%B6te/);
    expect(decodeURIComponent(mail.mailto.split('body=')[1])).toBe(mail.body);
    expect(JSON.stringify(data)).not.toContain('19900101');

    const web = await book(erik, { type: 1, participants: [{ ...me, role: 'PresenterInternal' }, { role: 'PresenterExternal', displayName: 'Extern', pin: TOLK_PIN }] });
    const w = (await erik.get(`/api/meeting/${web.id}/invitations`)).json().data;
    // Sign-up is off unless the admin turns it on: no sign-up link (signup.api.test.ts has the link with its code).
    expect(web.signupEnabled).toBe(false);
    expect(w.links.map((l: { url: string }) => l.url.replace(/^https?:\/\/[^/]+/, ''))).toEqual([`/meetings/${web.id}/lobby`, `/publicaccess/${web.roomId}`]);
    expect(w.invitations.map((i: { audience: string }) => i.audience)).toEqual(['IPE', 'IPREG', 'NotDefined']);
    // Participants who are not admins get no links.
    expect((await (await t.as('jonna')).get(`/api/meeting/${m.id}/invitations`)).json().data).toEqual({ links: [], invitations: [] });
  });

  it('serves an .ics that ical.js parses, at the right Stockholm time, with a stable UID and SEQUENCE = version', async () => {
    const erik = await t.as('erik');
    const m = await book(erik, { title: 'Möte; med, tecken', startTime: '2027-07-01T09:30:00+02:00', endTime: '2027-07-01T10:15:00+02:00' });
    const res = await (await t.as('jonna')).get(`/api/meeting/${m.id}/calendar.ics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    expect(res.body).toContain('\r\n');
    for (const line of res.body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const parse = (ics: string) => {
      const comp = new ICAL.Component(ICAL.parse(ics));
      const tz = comp.getFirstSubcomponent('vtimezone')!;
      ICAL.TimezoneService.register(tz);
      const event = new ICAL.Event(comp.getFirstSubcomponent('vevent')!);
      return event;
    };
    const event = parse(res.body);
    expect(event.summary).toBe('Möte; med, tecken');
    expect(event.uid).toBe(`${m.id}@videomote`);
    expect(event.sequence).toBe(1);
    expect(event.startDate.zone?.tzid).toBe('Europe/Stockholm');
    expect(event.startDate.toJSDate().toISOString()).toBe('2027-07-01T07:30:00.000Z'); // summer time, +02:00
    expect(event.endDate.toJSDate().toISOString()).toBe('2027-07-01T08:15:00.000Z');
    expect(event.description).toContain(`/meetings/${m.id}/lobby`);

    const updated = (await erik.put('/api/meeting', { ...m, startTime: '2026-12-01T09:30:00+01:00', endTime: '2026-12-01T10:00:00+01:00' })).json().data;
    const again = parse((await erik.get(`/api/meeting/${updated.id}/calendar.ics`)).body);
    expect(again.uid).toBe(event.uid);
    expect(again.sequence).toBe(2);
    expect(again.startDate.toJSDate().toISOString()).toBe('2026-12-01T08:30:00.000Z'); // winter time, +01:00
    expect((await (await t.as('karin')).get(`/api/meeting/${m.id}/calendar.ics`)).statusCode).toBe(404);
  });
});
