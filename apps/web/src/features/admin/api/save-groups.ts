import type { GroupsResponse, RoleGrantsUpdate } from '@videomote/contract/admin';
import { api } from '../../../lib/api-client.ts';

export const saveGroups = (update: RoleGrantsUpdate) => api<GroupsResponse>('PUT', 'api/admin/groups', update, { quiet: true });
