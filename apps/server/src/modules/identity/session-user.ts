import type { PinCrypto } from '../../platform/crypto.ts';
import type { SessionUser } from '../../platform/session.ts';
import { accessFor, parseRoles, type RoleGrants } from './access.ts';

/** The claims we read from the identity provider, whichever it is. */
export interface IdentityClaims {
  sub: string;
  given_name?: string;
  family_name?: string;
  /** Comma-separated membership roles. */
  roles?: unknown;
  /** Agency staff id. */
  af_id?: string | null;
  /** Personnummer (12 digits) for e-ID logins. */
  pin?: string | null;
}

/** `grants`: the Grupper table (admin module's loadRoleGrants); without it the built-in grants apply. */
export function sessionUserFromClaims(claims: IdentityClaims, pins: PinCrypto, grants?: RoleGrants): SessionUser {
  const roles = parseRoles(claims.roles);
  const access = accessFor(roles, grants);
  const afId = typeof claims.af_id === 'string' && claims.af_id ? claims.af_id : null;
  const pin = typeof claims.pin === 'string' && claims.pin ? claims.pin : null;
  return {
    kind: afId ? 'staff' : 'eid',
    subject: claims.sub,
    firstName: claims.given_name ?? '',
    lastName: claims.family_name ?? '',
    afId,
    pinHash: pin ? pins.hash(pin) : null,
    pinEncrypted: pin ? pins.encrypt(pin) : null,
    roles,
    ...access,
    meetingId: null,
  };
}

/**
 * An anonymous session user: only a name (the visitor's own) and, for a webcast visitor, the one meeting it is scoped
 * to. No identity, no personnummer, no roles and therefore no features.
 */
export function anonymousSessionUser(who: { subject: string; firstName: string; lastName?: string; meetingId: string | null }): SessionUser {
  return {
    kind: 'anonymous',
    subject: who.subject,
    firstName: who.firstName,
    lastName: who.lastName ?? '',
    afId: null,
    pinHash: null,
    pinEncrypted: null,
    roles: [],
    features: [],
    userLevel: 'None',
    isAdmin: false,
    meetingId: who.meetingId,
  };
}
