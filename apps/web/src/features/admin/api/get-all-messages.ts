import type { SystemMessage } from '@videomote/contract/messages';
import { api } from '../../../lib/api-client.ts';

export const getAllMessages = () => api<SystemMessage[]>('GET', 'api/message/all');
