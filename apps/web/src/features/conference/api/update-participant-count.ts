import { api } from '../../../lib/api-client.ts';

/** Saves a webcast's participant count on leaving (spec §7 "Meeting update"; the meetings API's PUT). */
export const updateParticipantCount = (meetingId: string, countInfoParticipants: number) =>
  api<unknown>('PUT', `api/meeting/${encodeURIComponent(meetingId)}/${countInfoParticipants}`, { id: meetingId, countInfoParticipants }, { quiet: true });
