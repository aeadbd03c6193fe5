import type { SignupType } from '@videomote/contract/signup';
import { api } from '../../../lib/api-client.ts';

// Quiet: without the type the page still says what to do, under the general heading.
export const getSignupType = (meetingId: string, signal?: AbortSignal) =>
  api<SignupType>('GET', `api/meeting/signuptype/${encodeURIComponent(meetingId)}`, undefined, { quiet: true, signal });
