import type { ParticipantConnectionCheck } from '@videomote/contract/connection-check';
import { api } from '../../../lib/api-client.ts';

/** Each participant's last lobby connection check (the meeting's staff only; others get 403). */
export const getConnectionChecks = (meetingId: string, signal?: AbortSignal) =>
  api<ParticipantConnectionCheck[]>('GET', `api/meeting/${encodeURIComponent(meetingId)}/connectionchecks`, undefined, { quiet: true, signal });
