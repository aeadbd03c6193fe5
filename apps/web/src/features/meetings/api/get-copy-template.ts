import type { Meeting } from '@videomote/contract/meetings';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export const getCopyTemplate = (id: string, options?: RequestOptions) => api<Meeting>('GET', `api/meeting/copy/${encodeURIComponent(id)}`, undefined, options);
