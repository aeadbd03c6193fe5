import { FeatureFlagKeys, type FeatureFlagKey, type FeatureFlags } from '@videomote/contract/admin';
import type { Queryable } from '../../platform/db.ts';

/** Built-in values; the database holds only what an administrator switched. */
export const FLAG_DEFAULTS: FeatureFlags = { callRating: true, systemMessages: true };

export const isFlagKey = (key: string): key is FeatureFlagKey => (FeatureFlagKeys as readonly string[]).includes(key);

export async function readFlags(db: Queryable): Promise<FeatureFlags> {
  const rows = await db.query<{ key: string; enabled: boolean }>('SELECT key, enabled FROM feature_flags');
  const flags = { ...FLAG_DEFAULTS };
  for (const r of rows) if (isFlagKey(r.key)) flags[r.key] = r.enabled;
  return flags;
}

export async function isFlagEnabled(db: Queryable, key: FeatureFlagKey): Promise<boolean> {
  const rows = await db.query<{ enabled: boolean }>('SELECT enabled FROM feature_flags WHERE key = $1', [key]);
  return rows[0]?.enabled ?? FLAG_DEFAULTS[key];
}

export async function writeFlags(db: Queryable, flags: Partial<FeatureFlags>): Promise<void> {
  for (const [key, enabled] of Object.entries(flags)) {
    await db.query(
      `INSERT INTO feature_flags (key, enabled) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()`,
      [key, enabled],
    );
  }
}
