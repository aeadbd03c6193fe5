import { MembershipRoles, type Feature, type MembershipRole, type UserLevel } from '@videomote/contract/identity';

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

/** Staff get EditMeeting, InternalMeeting and ScreenShare; KA and MSFA users EditMeeting; externals none. */
export function accessFor(roles: MembershipRole[]): Access {
  const isAdmin = roles.includes('VIDAdmin');
  if (roles.includes('VIDMedarbetare') || isAdmin) {
    return { features: ['EditMeeting', 'InternalMeeting', 'ScreenShare'], userLevel: 'Intern', isAdmin };
  }
  if (roles.includes('KompletterandeAktör')) return { features: ['EditMeeting'], userLevel: 'KA', isAdmin };
  if (roles.includes('FriståendeAktör')) return { features: ['EditMeeting'], userLevel: 'MSFA', isAdmin };
  return { features: [], userLevel: 'None', isAdmin };
}
