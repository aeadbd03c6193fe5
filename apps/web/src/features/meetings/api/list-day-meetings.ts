import type { Meeting } from '@videomote/contract/meetings';
import { api } from '../../../lib/api-client.ts';

export const listDayMeetings = (from: Date, to: Date) =>
  api<Meeting[]>('GET', `api/meeting/day?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`);
