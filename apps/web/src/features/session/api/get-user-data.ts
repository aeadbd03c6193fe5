import type { UserData } from '@videomote/contract/identity';
import { api } from '../../../lib/api-client.ts';

export const getUserData = () => api<UserData>('GET', 'api/login/getuserdata', undefined, { quiet: true });
