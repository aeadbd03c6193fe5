import { Features, MembershipRoles, type Feature, type MembershipRole } from '@videomote/contract/identity';
import { GROUP_ERRORS, type RoleGrant, type RoleGrantsUpdate } from '@videomote/contract/admin';
import type { ErrorItem } from '@videomote/contract/errors';
import type { Db, Queryable } from '../../platform/db.ts';
import { validationError } from '../../platform/errors.ts';
import { accessFor, type RoleGrants } from '../identity/access.ts';

interface GrantRow {
  role: string;
  features: string[] | string;
  is_admin: boolean;
}

// PostgreSQL hands text[] back as an array; be lenient with the literal form in case a driver does not parse it.
const asArray = (v: string[] | string): string[] => (Array.isArray(v) ? v : v.replace(/^\{|\}$/g, '').split(',').filter(Boolean));

const isRole = (r: string): r is MembershipRole => (MembershipRoles as readonly string[]).includes(r);
const isFeature = (f: string): f is Feature => (Features as readonly string[]).includes(f);

/**
 * The grants the login applies (Grupper), read fresh on each login so an edit takes effect at the next one.
 * An empty table (a database emptied by hand or by a test) means "not configured": undefined, so accessFor()
 * falls back to the built-in grants instead of silently taking every feature from everybody.
 */
export async function loadRoleGrants(db: Queryable): Promise<RoleGrants | undefined> {
  const rows = await db.query<GrantRow>('SELECT role, features, is_admin FROM role_grants');
  if (!rows.length) return undefined;
  const grants: RoleGrants = {};
  for (const r of rows) {
    if (!isRole(r.role)) continue;
    grants[r.role] = { features: asArray(r.features).filter(isFeature), isAdmin: r.is_admin };
  }
  return grants;
}

/** What each role grants when nothing is stored: the built-in rules of accessFor(). */
function builtInGrants(): RoleGrants {
  return Object.fromEntries(MembershipRoles.map((role) => {
    const a = accessFor([role]);
    return [role, { features: a.features, isAdmin: a.isAdmin }];
  }));
}

/** Every known role with what it grants, in the contract's order; the user level is fixed per role. */
export async function listRoleGrants(db: Queryable): Promise<RoleGrant[]> {
  const grants = (await loadRoleGrants(db)) ?? builtInGrants();
  return MembershipRoles.map((role) => ({
    role,
    features: grants[role]?.features ?? [],
    isAdmin: grants[role]?.isAdmin ?? false,
    userLevel: accessFor([role]).userLevel,
  }));
}

export async function saveRoleGrants(db: Db, update: RoleGrantsUpdate): Promise<void> {
  const errors: ErrorItem[] = [];
  for (const [i, g] of update.grants.entries()) {
    if (!isRole(g.role)) errors.push({ fields: [`grants.${i}.role`], message: GROUP_ERRORS.unknownRole });
    if (!g.features.every(isFeature)) errors.push({ fields: [`grants.${i}.features`], message: GROUP_ERRORS.unknownFeature });
  }
  if (errors.length) throw validationError(errors);
  const current = (await loadRoleGrants(db)) ?? builtInGrants();
  const next: RoleGrants = { ...current };
  for (const g of update.grants) next[g.role as MembershipRole] = { features: [...new Set(g.features as Feature[])], isAdmin: g.isAdmin };
  // SECURITY/operations: without any admin-granting role nobody could ever reach this page again to undo it.
  if (!Object.values(next).some((g) => g?.isAdmin)) throw validationError([{ fields: ['grants'], message: GROUP_ERRORS.lastAdmin }]);
  await db.transaction(async (tx) => {
    for (const g of update.grants) {
      const features = Features.filter((f) => g.features.includes(f));
      await tx.query(
      // Grupper saves the whole table: only a row whose grants change is stamped, so updated_at records what an
      // administrator changed (migration 019 gives a new default only to rows no administrator changed).
      `INSERT INTO role_grants (role, features, is_admin) VALUES ($1, $2, $3)
       ON CONFLICT (role) DO UPDATE SET features = EXCLUDED.features, is_admin = EXCLUDED.is_admin, updated_at = now()
       WHERE role_grants.features IS DISTINCT FROM EXCLUDED.features OR role_grants.is_admin IS DISTINCT FROM EXCLUDED.is_admin`,
        [g.role, features, g.isAdmin],
      );
    }
  });
}
