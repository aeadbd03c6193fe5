import type { Meeting } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

export const getMeeting = (id: string) => api<Meeting>('GET', `api/meeting/${encodeURIComponent(id)}`);
