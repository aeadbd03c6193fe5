import type { SystemMessage, SystemMessageInput } from '@videomote/contract/messages';
import { api } from '../../../lib/api-client.ts';

/** `PUT /api/message` with the id in the body (booking spec §7). */
export const updateMessage = (message: SystemMessageInput & { id: string }) => api<SystemMessage>('PUT', 'api/message', message, { quiet: true });
