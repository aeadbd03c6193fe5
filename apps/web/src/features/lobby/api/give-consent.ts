import { api } from '../../../lib/api-client.ts';

/** The ticked consent box, recorded by the server: the conference's media token needs it. */
export const giveConsent = (meetingId: string) => api<null>('POST', `api/lobby/${encodeURIComponent(meetingId)}/consent`, {});
