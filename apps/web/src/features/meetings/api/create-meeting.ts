import type { Meeting, MeetingRequest } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

// quiet: validation errors, 403 and 409 are shown in the form, not on the error page.
export const createMeeting = (request: MeetingRequest) => api<Meeting>('POST', 'api/meeting', request, { quiet: true });
