import type { Meeting } from '@videomote/contract/meetings';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export const listDayMeetings = (from: Date, to: Date, options?: RequestOptions) =>
  api<Meeting[]>('GET', `api/meeting/day?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`, undefined, options);
