import { api } from '../../../lib/api-client.ts';

/** A meeting admin force-mutes another connection's microphone; the server checks the right and holds the room secret. */
export const forceMute = (meetingId: string, connectionId: string) =>
  api<null>('POST', `api/media/${encodeURIComponent(meetingId)}/forcemute`, { connectionId }, { quiet: true });
