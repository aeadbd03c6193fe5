import type { ConnectionCheckResult, ConnectionCheckStart } from '@videomote/contract/connection-check';
import { api } from '../../../lib/api-client.ts';

/** The check's token and ICE servers (TURN with this participant's credentials), as the call would get them. */
export const startConnectionCheck = (meetingId: string, signal?: AbortSignal) =>
  api<ConnectionCheckStart>('POST', `api/meeting/${encodeURIComponent(meetingId)}/connectioncheck`, {}, { quiet: true, signal });

/** Only the outcome goes to the server; the meeting's staff see it on the meeting card. */
export const reportConnectionCheck = (meetingId: string, result: ConnectionCheckResult) =>
  api<null>('POST', `api/meeting/${encodeURIComponent(meetingId)}/connectioncheck/result`, { result }, { quiet: true });
