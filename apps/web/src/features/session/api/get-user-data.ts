import type { UserData } from '@videomote/contract/identity';
import { api } from '../../../lib/api-client.ts';

/** Who is signed in, or null for nobody (optional=true: the server answers 200 rather than 401). */
export const getUserData = () => api<UserData | null>('GET', 'api/login/getuserdata?optional=true', undefined, { quiet: true });
