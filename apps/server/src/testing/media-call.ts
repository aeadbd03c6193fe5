import type { LightMyRequestResponse } from 'fastify';
import type { TestApp, TestClient } from './test-app.ts';
import { insertMeeting } from './fixtures.ts';

/**
 * What a browser does between the lobby and the call: the lobby's consent (a participant's; a webcast visitor has
 * no lobby), then `POST /api/meeting/gettoken`. Answers the gettoken response for the caller to check: when the
 * consent is refused (a stranger), the token is refused too and says why.
 */
export async function tokenFor(client: TestClient, meetingId: string, displayName?: string): Promise<LightMyRequestResponse> {
  if (client.user?.kind !== 'anonymous') await client.post(`/api/lobby/${meetingId}/consent`, {});
  return client.post('/api/meeting/gettoken', { meetingId, ...(displayName === undefined ? {} : { displayName }) });
}

/**
 * The call the media API suites share: today 09:00–10:00 (the suites' clock), Erik booking as admin, Jonna as the
 * job seeker 'Jonna S' and, when asked, Karin as a contractor.
 */
export function bookedCall(t: Pick<TestApp, 'db' | 'app'>, type: 0 | 1 = 0, options: { withKarin?: boolean } = {}) {
  return insertMeeting(t.db, t.app.deps.pins, {
    type,
    start: '2026-11-20T09:00:00+01:00',
    end: '2026-11-20T10:00:00+01:00',
    participants: [
      { persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker', displayName: 'Jonna S' },
      ...(options.withKarin ? [{ persona: 'karin' as const, role: 'PrivateContractor' as const }] : []),
    ],
  });
}
