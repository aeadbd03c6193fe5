import { beforeEach, describe, expect, it } from 'vitest';
import { MEETING_MESSAGES } from '@videomote/contract/meeting-rules';
import { useTestApp } from '../../testing/use-test-app.ts';
import { insertMeeting, seedBuiltInRoleGrants } from '../../testing/fixtures.ts';
import { personaByKey } from '../identity/personas.ts';
import { sessionUserFromClaims } from '../identity/session-user.ts';
import { tokenFor } from '../../testing/media-call.ts';
import { loadRoleGrants } from './role-grants.ts';

// The features Grupper switches (booking spec §3, §6) act on the server: ScreenShare on the media capabilities
// the relay checks, InternalMeeting on booking colleagues. Each is proved switched on and switched off.
const t = useTestApp('2026-11-20T09:00:00+01:00', { env: { JANUS_URL: 'ws://127.0.0.1:9' } });
const STAFF = ['EditMeeting', 'InternalMeeting', 'ScreenShare'];

// reset() empties every table, seeds included: the built-in grants back before each test.
beforeEach(async () => seedBuiltInRoleGrants(t.db));

/** Anna sets what staff (VIDMedarbetare) get in Grupper. */
async function grantStaff(features: string[]) {
  const anna = await t.as('anna');
  const res = await anna.put('/api/admin/groups', { grants: [{ role: 'VIDMedarbetare', features, isAdmin: false }] });
  expect(res.statusCode, res.body).toBe(200);
}

/** Erik logs in again: the login reads Grupper, as identity.routes.ts does. */
async function erikLogsIn() {
  const p = personaByKey('erik');
  const grants = await loadRoleGrants(t.db);
  return t.as(sessionUserFromClaims({ sub: 'test-erik', given_name: p.firstName, family_name: p.lastName, roles: p.roles, af_id: p.afId }, t.app.deps.pins, grants));
}

describe('ScreenShare', () => {
  it('is in the media capabilities only while Grupper grants it', async () => {
    const m = await insertMeeting(t.db, t.app.deps.pins, {
      start: '2026-11-20T09:00:00+01:00',
      end: '2026-11-20T10:00:00+01:00',
      participants: [{ persona: 'erik', role: 'EmploymentOfficer', isAdmin: true }],
    });
    const capabilities = async () => {
      const res = await tokenFor(await erikLogsIn(), m.id);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.capabilities;
    };
    expect(await capabilities()).toMatchObject({ publish: true, screenShare: true });
    await grantStaff(['EditMeeting', 'InternalMeeting']);
    // Withdrawn: neither sharing nor taking another's share over; publishing goes on.
    expect(await capabilities()).toMatchObject({ publish: true, forceUnpublish: false, screenShare: false });
    await grantStaff(STAFF);
    expect(await capabilities()).toMatchObject({ screenShare: true });
  });
});

describe('InternalMeeting', () => {
  const booking = (colleague: Record<string, unknown>) => ({
    title: 'Avstämning',
    type: 0,
    startTime: '2026-11-20T14:00:00+01:00',
    endTime: '2026-11-20T15:00:00+01:00',
    participants: [{ currentUser: true, role: 'EmploymentOfficer', isAdmin: true }, colleague],
  });
  const colleague = { role: 'EmploymentOfficer', afId: 'annadm' };
  const presenter = { role: 'PresenterInternal', afId: 'annadm' };

  it('lets staff book a colleague only while Grupper grants it, and says so at the role field', async () => {
    expect((await (await erikLogsIn()).post('/api/meeting', booking(colleague))).statusCode).toBe(200);
    await grantStaff(['EditMeeting', 'ScreenShare']);
    const erik = await erikLogsIn();
    const refused = await erik.post('/api/meeting', booking(colleague));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ fields: ['participant-1-role'], message: MEETING_MESSAGES.internalMeetingNotAllowed }]);
    const webcast = await erik.post('/api/meeting', { ...booking(presenter), type: 1, participants: [{ currentUser: true, role: 'PresenterInternal', isAdmin: true }, presenter] });
    expect(webcast.json().errors).toEqual([{ fields: ['participant-1-role'], message: MEETING_MESSAGES.internalMeetingNotAllowed }]);
    // A meeting with people from outside the agency is still theirs to book.
    const external = await erik.post('/api/meeting', booking({ role: 'JobSeeker', displayName: 'Jonna Sökande', pin: '19900101-2385' }));
    expect(external.statusCode, external.body).toBe(200);
    await grantStaff(STAFF);
    expect((await (await erikLogsIn()).post('/api/meeting', booking(colleague))).statusCode).toBe(200);
  });
});
