import type { Meeting } from '@videomote/contract/meetings';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export const getMeeting = (id: string, options?: RequestOptions) => api<Meeting>('GET', `api/meeting/${encodeURIComponent(id)}`, undefined, options);
