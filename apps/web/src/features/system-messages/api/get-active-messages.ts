import type { SystemMessage } from '@videomote/contract/messages';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/message`: public; quiet, because a missing banner must never send the user to /error. */
export const getActiveMessages = (signal?: AbortSignal) => api<SystemMessage[]>('GET', 'api/message', undefined, { quiet: true, signal });
