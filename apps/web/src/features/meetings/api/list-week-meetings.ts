import type { Meeting } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

export const listWeekMeetings = (from: Date, to: Date) =>
  api<Meeting[]>('GET', `api/meeting/week?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`);
