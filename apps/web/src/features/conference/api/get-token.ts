import type { GetTokenData } from '@videomote/contract/media';
import { api } from '../../../lib/api-client.ts';

/** `POST /api/meeting/gettoken` (spec §7). Quiet: the conference shows 'Anslutning misslyckades' in place. */
export const getToken = (meetingId: string, displayName: string) =>
  api<GetTokenData>('POST', 'api/meeting/gettoken', { meetingId, displayName }, { quiet: true });
