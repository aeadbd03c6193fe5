import type { AppSettings } from '@videomote/contract/admin';
import { api } from '../../../lib/api-client.ts';

export const getAppSettings = (signal?: AbortSignal) => api<AppSettings>('GET', 'api/admin/appsettings', undefined, { signal });
