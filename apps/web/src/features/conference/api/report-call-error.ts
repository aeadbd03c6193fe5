import type { ClientErrorCode } from '@videomote/contract/admin';
import { api } from '../../../lib/api-client.ts';

/** `POST /api/meetingerror`: tells Felsökning about a call error of this meeting (a code and the shown text). */
export const reportCallError = (meetingId: string, code: ClientErrorCode, message: string) =>
  api<{ recorded: true }>('POST', 'api/meetingerror', { meetingId, code, message }, { quiet: true });
