import type { SystemMessage } from '@videomote/contract/messages';
import { api } from '../../../lib/api-client.ts';

export const getMessage = (id: string) => api<SystemMessage>('GET', `api/message/${encodeURIComponent(id)}`);
