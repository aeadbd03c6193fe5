import { readCookie } from '../../lib/cookies.ts';

export type AuthenticationVariant = 'CIAM' | 'Webcast';

/** The authentication variant from the `authenticationvariant` cookie, CIAM unless it says Webcast (spec §7). */
export function authenticationVariant(): AuthenticationVariant {
  return readCookie('authenticationvariant') === 'Webcast' ? 'Webcast' : 'CIAM';
}
