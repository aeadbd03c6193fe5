import type { MeetingWeek } from '@videomote/contract/meetings';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export const getMeetingWeeks = (options?: RequestOptions) => api<MeetingWeek[]>('GET', 'api/meetingweek', undefined, options);
