import type { Meeting } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

export const getCopyTemplate = (id: string) => api<Meeting>('GET', `api/meeting/copy/${encodeURIComponent(id)}`);
