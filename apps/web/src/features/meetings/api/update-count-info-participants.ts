import { api } from '../../../lib/api-client.ts';

export const updateCountInfoParticipants = (id: string, countInfoParticipants: number) =>
  api<{ id: string; countInfoParticipants: number }>('PUT', `api/meeting/${encodeURIComponent(id)}/${countInfoParticipants}`, { id, countInfoParticipants });
