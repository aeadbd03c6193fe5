import type { FeatureFlags } from '@videomote/contract/admin';
import { api } from '../../../lib/api-client.ts';

export const saveFlags = (flags: Partial<FeatureFlags>) => api<{ flags: FeatureFlags }>('PUT', 'api/admin/appsettings/flags', { flags }, { quiet: true });
