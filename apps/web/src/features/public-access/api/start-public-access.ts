import type { PublicAccessSession } from '@videomote/contract/public-access';
import { api } from '../../../lib/api-client.ts';

export const startPublicAccess = (roomId: string, displayName: string) =>
  api<PublicAccessSession>('POST', `api/publicaccess/${encodeURIComponent(roomId)}`, { displayName }, { quiet: true });
