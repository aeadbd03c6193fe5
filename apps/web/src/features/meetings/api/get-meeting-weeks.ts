import type { MeetingWeek } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

export const getMeetingWeeks = () => api<MeetingWeek[]>('GET', 'api/meetingweek');
