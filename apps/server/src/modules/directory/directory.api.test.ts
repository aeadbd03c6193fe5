import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../../testing/test-app.ts';
import { SLAPD_BASE_DN, SLAPD_SERVICE_DN, SLAPD_SERVICE_PASSWORD, startSlapd, type Slapd } from '../../testing/slapd.ts';
import { ownMeetingBody } from '../../testing/request-bodies.ts';
import { DIRECTORY_UNAVAILABLE } from './directory-errors.ts';
import { EMPLOYEE_SEARCHES_PER_MINUTE } from '../../platform/rate-limits.ts';

// The agency's directory as Debian's slapd, with Active Directory's attribute names and the product's default filter.
const PEOPLE = [
  { agencyId: 'erihan', givenName: 'Erik', surname: 'Handläggare', mail: 'erik.handlaggare@myndighet.se' },
  { agencyId: 'marlin', givenName: 'Maria', surname: 'Lindqvist', mail: 'maria.lindqvist@myndighet.se' },
  { agencyId: 'marlun', givenName: 'Mårten', surname: 'Lundgren', mail: 'marten.lundgren@myndighet.se' },
  { agencyId: 'kaljon', givenName: 'Kalle', surname: 'Jonsson', mail: 'kalle.jonsson@myndighet.se' },
  // Disabled (bit 2 of userAccountControl) and a machine account: AD keeps both as users, neither is a colleague.
  { agencyId: 'marsve', givenName: 'Maria', surname: 'Svensson', mail: 'maria.svensson@myndighet.se', userAccountControl: 514 },
  { agencyId: 'marws01$', givenName: 'Marws01', surname: 'Dator', kind: 'computer' as const },
  // A name with the filter's own special characters: found by typing them, as text.
  { agencyId: 'testec', givenName: 'Test', surname: 'Tecken*(Special)\\', mail: 'test.tecken@myndighet.se' },
  ...['a', 'b', 'c', 'd', 'e'].map((x) => ({ agencyId: `lars0${x}`, givenName: 'Lars', surname: `Larsson ${x.toUpperCase()}` })),
];

const SIZE_LIMIT = 3;
const NOW = '2026-11-20T09:00:00+01:00';

describe('GET /api/employee/{query} against the agency directory (slapd)', () => {
  let slapd: Slapd;
  let t: TestApp;

  beforeAll(async () => {
    slapd = await startSlapd(PEOPLE);
    t = await buildTestApp({
      clock: testClock(NOW),
      env: {
        LDAP_URL: slapd.url,
        LDAP_BIND_DN: SLAPD_SERVICE_DN,
        LDAP_BIND_PASSWORD: SLAPD_SERVICE_PASSWORD,
        LDAP_BASE_DN: `ou=Personal,${SLAPD_BASE_DN}`,
        LDAP_SIZE_LIMIT: String(SIZE_LIMIT),
        LDAP_TIMEOUT_MS: '2000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.dispose();
  });

  const search = async (query: string) => {
    const res = await (await t.as('erik')).get(`/api/employee/${encodeURIComponent(query)}`);
    return { status: res.statusCode, body: res.json() };
  };
  const ids = (body: { data: { signatur: string }[] }) => body.data.map((e) => e.signatur);

  it('finds colleagues by agency id and by name, with name and e-mail from the directory', async () => {
    const byId = await search('marlin');
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual([{ signatur: 'marlin', namn: 'Maria Lindqvist', elektroniskAdress: 'maria.lindqvist@myndighet.se' }]);
    // Prefix of the agency id: people only (no disabled account, no computer), in the shared order.
    expect(ids((await search('mar')).body)).toEqual(['marlin', 'marlun']);
    expect(ids((await search('Lindq')).body)).toEqual(['marlin']);
    expect(ids((await search('MÅRT')).body)).toEqual(['marlun']);
    expect(ids((await search('maria lind')).body)).toEqual(['marlin']);
    expect(ids((await search('Svensson')).body)).toEqual([]);
  });

  it('answers an empty list for nobody, and bounds a wide search by the size limit', async () => {
    expect(await search('Zlatan')).toEqual({ status: 200, body: { data: [] } });
    expect((await search('ma')).body.data).toEqual([]); // under three characters: not asked
    const wide = await search('Lars');
    expect(wide.status).toBe(200);
    expect(wide.body.data).toHaveLength(SIZE_LIMIT);
    for (const e of wide.body.data) expect(e.namn).toMatch(/^Lars Larsson [A-E]$/);
  });

  it('treats filter syntax in the query as text (RFC 4515 escaping)', async () => {
    // Unescaped, these would close the filter and match everyone (`*`) or make it invalid; escaped, they are looked for.
    for (const attack of ['*)(uid=*', '*)(|(sAMAccountName=*', 'mar\\', 'mar\u0000lin', '*))%00', ')(cn=*']) {
      const res = await search(attack);
      expect(res, attack).toEqual({ status: 200, body: { data: [] } });
    }
    // The same characters, typed as the start of a surname that has them, find that person.
    expect(ids((await search('Tecken*(Spe')).body)).toEqual(['testec']);
    expect(ids((await search('Tecken*(Special)\\')).body)).toEqual(['testec']);
  });

  it('books a colleague found in the directory, the booker named and addressed from it', async () => {
    const erik = await t.as('erik');
    const res = await erik.post('/api/meeting', {
      ...ownMeetingBody('Med kollega', '2026-11-20T10:00:00+01:00', '2026-11-20T11:00:00+01:00'),
      participants: [{ currentUser: true, role: 'EmploymentOfficer', isAdmin: true }, { role: 'EmploymentOfficer', afId: 'MARLUN', displayName: 'x' }],
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.db.query<{ af_id: string; display_name: string; email: string | null }>(
      'SELECT af_id, display_name, email FROM meeting_participants ORDER BY display_name',
    );
    expect(rows).toEqual([
      { af_id: 'erihan', display_name: 'Erik Handläggare', email: 'erik.handlaggare@myndighet.se' },
      { af_id: 'marlun', display_name: 'Mårten Lundgren', email: 'marten.lundgren@myndighet.se' },
    ]);
  });

  it('is for staff only: contractors (KA, MSFA) who book meetings get a 403 and no names from the real directory', async () => {
    for (const who of ['karin', 'fredrik', 'jonna'] as const) {
      const res = await (await t.as(who)).get('/api/employee/mar');
      expect(res.statusCode, who).toBe(403);
      expect(res.body, who).not.toContain('myndighet.se');
    }
    expect((await t.anonymous().get('/api/employee/mar')).statusCode).toBe(401);
  });

  it('is rate-limited per person: a script walking prefixes is stopped, a new login brings no fresh budget', async () => {
    const anna = await t.as('anna');
    const statuses: number[] = [];
    for (let i = 0; i < EMPLOYEE_SEARCHES_PER_MINUTE; i++) statuses.push((await anna.get(`/api/employee/a${String(i).padStart(2, '0')}`)).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await anna.get('/api/employee/mar');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ name: 'TooManyRequests', message: 'För många förfrågningar, försök igen om en stund' });
    // Logging in again is the same person: still refused.
    expect((await (await t.as('anna')).get('/api/employee/mar')).statusCode).toBe(429);
    // Another colleague keeps their own budget.
    expect((await (await t.as('erik')).get('/api/employee/mar')).statusCode).toBe(200);
  });

  it('with the directory down: the Swedish message in the error shape, everything else still works, and back when it is', async () => {
    const erik = await t.as('erik');
    expect(ids((await search('Lindqvist')).body)).toEqual(['marlin']); // cached from here on
    const stoppedPid = slapd.pid;
    await slapd.stop();
    expect(stoppedPid).toBeGreaterThan(0);

    const down = await search('Handl');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      name: 'ServiceUnavailable',
      message: DIRECTORY_UNAVAILABLE,
      statusCode: 503,
      errors: [{ fields: ['query'], message: DIRECTORY_UNAVAILABLE }],
    });
    // A question answered a moment ago is still answered from the cache.
    expect(ids((await search('Lindqvist')).body)).toEqual(['marlin']);

    // The rest of the service does not depend on the directory: the booker books without it ...
    const own = await erik.post('/api/meeting', ownMeetingBody('Utan katalog', '2026-11-20T13:00:00+01:00', '2026-11-20T14:00:00+01:00'));
    expect(own.statusCode).toBe(200);
    expect(own.json().data.participants[0]).toMatchObject({ afId: 'erihan', displayName: 'Erik Handläggare' });
    expect((await erik.get(`/api/meeting/${own.json().data.id}`)).statusCode).toBe(200);
    expect((await erik.get('/api/meeting/day')).statusCode).toBe(200);
    // ... with the colleague just picked from a search (the search's answer also answers the look-up by id) ...
    const colleague = (afId: string) => ({
      ...ownMeetingBody('Med kollega', '2026-11-20T15:00:00+01:00', '2026-11-20T16:00:00+01:00'),
      participants: [{ currentUser: true, role: 'EmploymentOfficer', isAdmin: true }, { role: 'EmploymentOfficer', afId, displayName: '' }],
    });
    const picked = await erik.post('/api/meeting', colleague('marlin'));
    expect(picked.statusCode).toBe(200);
    expect(picked.json().data.participants[1]).toMatchObject({ afId: 'marlin', displayName: 'Maria Lindqvist' });
    // ... and a colleague nobody looked up, who cannot be checked now, gets the message at their field, not an error page.
    const unchecked = await erik.post('/api/meeting', colleague('kaljon'));
    expect(unchecked.statusCode).toBe(400);
    expect(unchecked.json().errors).toEqual([{ fields: ['participant-1-afId'], message: DIRECTORY_UNAVAILABLE }]);

    // The outage is not remembered: the same search works as soon as the directory is back.
    await slapd.start();
    expect(ids((await search('Handl')).body)).toEqual(['erihan']);
  });
});
