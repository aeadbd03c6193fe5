import { Features, MembershipRoles, type Feature, type MembershipRole, type UserLevel } from '@videomote/contract/identity';

/** Membership roles arrive as a comma-separated claim; unknown or malformed entries are ignored (booking spec §6). */
export function parseRoles(claim: unknown): MembershipRole[] {
  const raw = Array.isArray(claim) ? claim.join(',') : typeof claim === 'string' ? claim : '';
  const known = new Set<string>(MembershipRoles);
  const roles = raw
    .split(',')
    .map((r) => r.trim())
    .filter((r): r is MembershipRole => known.has(r));
  return [...new Set(roles)];
}

export interface Access {
  features: Feature[];
  userLevel: UserLevel;
  isAdmin: boolean;
}

/** What one membership role grants; the admin module keeps an editable table of these (Grupper). */
export interface RoleGrant {
  features: Feature[];
  isAdmin: boolean;
}
export type RoleGrants = Partial<Record<MembershipRole, RoleGrant>>;

/**
 * Staff get EditMeeting, InternalMeeting and ScreenShare; KA and MSFA users EditMeeting and ScreenShare; externals
 * ScreenShare. Every group may share a screen by default (booking spec §1: all participants of a conversation meeting
 * may; conference spec §6: any participant may take a share over): the administrator withdraws it per group.
 * With `grants` (the admin's Grupper table, read at login) features and admin are the union of what the user's
 * roles grant instead; the user level always follows the roles.
 */
export function accessFor(roles: MembershipRole[], grants?: RoleGrants): Access {
  if (grants) {
    const granted = new Set<Feature>();
    let admin = false;
    for (const role of roles) {
      for (const f of grants[role]?.features ?? []) granted.add(f);
      admin ||= grants[role]?.isAdmin ?? false;
    }
    return { features: Features.filter((f) => granted.has(f)), userLevel: accessFor(roles).userLevel, isAdmin: admin };
  }
  const isAdmin = roles.includes('VIDAdmin');
  if (roles.includes('VIDMedarbetare') || isAdmin) {
    return { features: ['EditMeeting', 'InternalMeeting', 'ScreenShare'], userLevel: 'Intern', isAdmin };
  }
  if (roles.includes('KompletterandeAktör')) return { features: ['EditMeeting', 'ScreenShare'], userLevel: 'KA', isAdmin };
  if (roles.includes('FriståendeAktör')) return { features: ['EditMeeting', 'ScreenShare'], userLevel: 'MSFA', isAdmin };
  // No known role at all (an anonymous visitor, a login without roles): nothing; the Participant role shares.
  if (!roles.includes('Participant')) return { features: [], userLevel: 'None', isAdmin };
  return { features: ['ScreenShare'], userLevel: 'None', isAdmin };
}
