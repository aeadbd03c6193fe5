import type { FeatureFlags } from '@videomote/contract/admin';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/featureflags`: public switches set in AppSettings. */
export const getFeatureFlags = () => api<FeatureFlags>('GET', 'api/featureflags', undefined, { quiet: true });
