import { api } from '../../../lib/api-client.ts';

/**
 * Ends the server session; the answer names the identity provider environment (booking spec §4, §7). A POST with
 * the anti-forgery header (the spec's GET would let any site log a user out with a link).
 */
export const logoutSession = () => api<string>('POST', 'api/login/logout', null, { quiet: true });
