import type { SignupInfo } from '@videomote/contract/signup';
import { api } from '../../../lib/api-client.ts';

// Quiet: the signup page shows its own errors instead of leaving for /error.
export const validateExternalUser = (meetingId: string, signal?: AbortSignal) =>
  api<SignupInfo>('GET', `api/meeting/validateexternaluser/${encodeURIComponent(meetingId)}`, undefined, { quiet: true, signal });
