import type { MeetingInvitations } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

/** A new sign-up code: links with the old one stop working. Answers the links and invitations with the new one. */
export const renewSignupCode = (id: string) => api<MeetingInvitations>('POST', `api/meeting/${encodeURIComponent(id)}/signupcode`, {}, { quiet: true });
