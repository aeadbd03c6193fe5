import { api } from '../../../lib/api-client.ts';

export const deleteMeeting = (id: string) => api<{ id: string }>('DELETE', `api/meeting/${encodeURIComponent(id)}`);
