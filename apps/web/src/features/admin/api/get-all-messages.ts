import type { SystemMessage } from '@videomote/contract/messages';
import { api } from '../../../lib/api-client.ts';

export const getAllMessages = (signal?: AbortSignal) => api<SystemMessage[]>('GET', 'api/message/all', undefined, { signal });
