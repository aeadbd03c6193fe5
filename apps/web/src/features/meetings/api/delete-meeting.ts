import { api } from '../../../lib/api-client.ts';

/** Quiet: a failed delete is told in the dialog that asked (booking spec §4 errors), not by leaving the page. */
export const deleteMeeting = (id: string) => api<{ id: string }>('DELETE', `api/meeting/${encodeURIComponent(id)}`, undefined, { quiet: true });
