import type { TroubleshootResult } from '@videomote/contract/admin';
import { api } from '../../../lib/api-client.ts';

/** Quiet: "nothing found" is an answer shown on the page. */
export const troubleshoot = (q: string, signal?: AbortSignal) =>
  api<TroubleshootResult>('GET', `api/admin/troubleshoot?q=${encodeURIComponent(q)}`, undefined, { quiet: true, signal });
