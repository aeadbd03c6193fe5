import type { LightMyRequestResponse } from 'fastify';
import type { TestClient } from './test-app.ts';

/**
 * What a browser does between the lobby and the call: the lobby's consent (a participant's; a webcast visitor has
 * no lobby), then `POST /api/meeting/gettoken`. Answers the gettoken response for the caller to check: when the
 * consent is refused (a stranger), the token is refused too and says why.
 */
export async function tokenFor(client: TestClient, meetingId: string, displayName?: string): Promise<LightMyRequestResponse> {
  if (client.user?.kind !== 'anonymous') await client.post(`/api/lobby/${meetingId}/consent`, {});
  return client.post('/api/meeting/gettoken', { meetingId, ...(displayName === undefined ? {} : { displayName }) });
}
