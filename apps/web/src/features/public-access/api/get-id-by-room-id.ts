import type { MeetingIdByRoom } from '@videomote/contract/public-access';
import { api } from '../../../lib/api-client.ts';

// The API client never sends this lookup's failures to /error (spec §8): the page shows them in place.
export const getIdByRoomId = (roomId: string, signal?: AbortSignal) =>
  api<MeetingIdByRoom>('GET', `api/meeting/getidbyroomid/${encodeURIComponent(roomId)}`, undefined, { signal });
