import type { LobbyMeeting } from '@videomote/contract/lobby';
import { api } from '../../../lib/api-client.ts';

/** 403 for somebody else's meeting and 404 for an unknown one: the server decides who reaches the lobby. */
export const getLobbyMeeting = (id: string, signal?: AbortSignal) =>
  api<LobbyMeeting>('GET', `api/lobby/${encodeURIComponent(id)}`, undefined, { signal });
