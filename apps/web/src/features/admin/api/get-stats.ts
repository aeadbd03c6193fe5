import type { StatsGrouping, StatsResponse } from '@videomote/contract/stats';
import { api } from '../../../lib/api-client.ts';

export interface StatsParams {
  from: string;
  to: string;
  group: StatsGrouping;
}

const query = (p: StatsParams) => new URLSearchParams({ from: p.from, to: p.to, group: p.group }).toString();

/** Quiet: a bad range is shown beside the form. */
export const getStats = (p: StatsParams, signal?: AbortSignal) => api<StatsResponse>('GET', `api/admin/stats?${query(p)}`, undefined, { quiet: true, signal });

/** The CSV export is a plain download link, so the browser saves the file itself. */
export const statsCsvUrl = (p: StatsParams) => `/api/admin/stats.csv?${query(p)}`;
