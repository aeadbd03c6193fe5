import type { GroupsResponse } from '@videomote/contract/admin';
import { api } from '../../../lib/api-client.ts';

export const getGroups = (signal?: AbortSignal) => api<GroupsResponse>('GET', 'api/admin/groups', undefined, { signal });
