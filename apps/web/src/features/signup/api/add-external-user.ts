import type { SignupMeeting } from '@videomote/contract/signup';
import { api } from '../../../lib/api-client.ts';

export const addExternalUser = (meetingId: string) =>
  api<SignupMeeting>('POST', 'api/meeting/addexternaluser', { meetingId, signedForm: true }, { quiet: true });
