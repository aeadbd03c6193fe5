import type { Meeting } from '@videomote/contract/meetings';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export const listWeekMeetings = (from: Date, to: Date, options?: RequestOptions) =>
  api<Meeting[]>('GET', `api/meeting/week?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`, undefined, options);
