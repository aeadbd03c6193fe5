import type { SystemMessage, SystemMessageInput } from '@videomote/contract/messages';
import { api } from '../../../lib/api-client.ts';

/** Quiet: validation errors are listed in the form (booking spec §8), not sent to /error. */
export const createMessage = (message: SystemMessageInput) => api<SystemMessage>('POST', 'api/message', message, { quiet: true });
