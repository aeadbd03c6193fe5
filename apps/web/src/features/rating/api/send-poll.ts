import { api } from '../../../lib/api-client.ts';

/** `POST /api/meetingpoll` (booking spec §7). Quiet: the dialog shows a failure itself. */
export const sendPoll = (poll: { callQuality: number; comment: string | null; meetingId: string }) =>
  api<{ id: string }>('POST', 'api/meetingpoll', poll, { quiet: true });
