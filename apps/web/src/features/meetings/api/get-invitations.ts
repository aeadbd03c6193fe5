import type { MeetingInvitations } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

export const getInvitations = (id: string, signal?: AbortSignal) =>
  api<MeetingInvitations>('GET', `api/meeting/${encodeURIComponent(id)}/invitations`, undefined, { quiet: true, signal });

/** Served by the server as text/calendar; a plain link downloads it. */
export const calendarUrl = (id: string) => `/api/meeting/${encodeURIComponent(id)}/calendar.ics`;
