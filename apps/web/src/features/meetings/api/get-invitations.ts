import type { MeetingInvitations } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

export const getInvitations = (id: string) => api<MeetingInvitations>('GET', `api/meeting/${encodeURIComponent(id)}/invitations`, undefined, { quiet: true });

/** Served by the server as text/calendar; a plain link downloads it. */
export const calendarUrl = (id: string) => `/api/meeting/${encodeURIComponent(id)}/calendar.ics`;
