import { api } from '../../../lib/api-client.ts';

export const deleteMessage = (id: string) => api<{ id: string }>('DELETE', `api/message/${encodeURIComponent(id)}`, undefined, { quiet: true });
