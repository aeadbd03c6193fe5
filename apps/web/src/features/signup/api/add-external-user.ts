import type { SignupMeeting } from '@videomote/contract/signup';
import { api } from '../../../lib/api-client.ts';

export const addExternalUser = (meetingId: string, code: string | null) =>
  api<SignupMeeting>('POST', 'api/meeting/addexternaluser', { meetingId, signedForm: true, ...(code ? { code } : {}) }, { quiet: true });
