import { api } from '../../../lib/api-client.ts';

/** Extends the session on purpose ('Fortsätt' in the inactivity warning); the answer stamps APILastCall. */
export const keepAlive = () => api<{ expiresAt: string }>('GET', 'api/login/keepalive', undefined, { quiet: true });
