import type { SignupInfo } from '@videomote/contract/signup';
import { SIGNUP_CODE_PARAM } from '@videomote/contract/signup';
import { api } from '../../../lib/api-client.ts';

// Quiet: the signup page shows its own errors instead of leaving for /error.
export const validateExternalUser = (meetingId: string, code: string | null, signal?: AbortSignal) =>
  api<SignupInfo>(
    'GET',
    `api/meeting/validateexternaluser/${encodeURIComponent(meetingId)}${code ? `?${SIGNUP_CODE_PARAM}=${encodeURIComponent(code)}` : ''}`,
    undefined,
    { quiet: true, signal },
  );
