import { api } from '../../../lib/api-client.ts';

/** Ends the server session; the answer names the identity provider environment (booking spec §4, §7). */
export const logoutSession = () => api<string>('GET', 'api/login/logout', undefined, { quiet: true });
