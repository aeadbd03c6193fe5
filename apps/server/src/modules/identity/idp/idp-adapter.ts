// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types; this pulls our declaration into every project that compiles this file (e2e too).
/// <reference path="./oidc-provider.d.ts" />
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../../platform/db.ts';

/**
 * oidc-provider's storage in our own database (PGlite or PostgreSQL), so an IdP session, a half-finished login
 * or an issued code survives a restart and is shared by several server processes. Expired rows are ignored on
 * read and swept now and then on write.
 */
export function databaseAdapter(db: Db): (model: string) => Adapter {
  let writes = 0;
  const live = 'AND (expires_at IS NULL OR expires_at > now())';

  const row = async (sql: string, params: unknown[]): Promise<AdapterPayload | undefined> => {
    const rows = await db.query<{ payload: AdapterPayload | string; consumed_at: Date | null }>(sql, params);
    const r = rows[0];
    if (!r) return undefined;
    const payload = typeof r.payload === 'string' ? (JSON.parse(r.payload) as AdapterPayload) : r.payload;
    return r.consumed_at ? { ...payload, consumed: Math.floor(new Date(r.consumed_at).getTime() / 1000) } : payload;
  };

  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await db.query(
        `INSERT INTO idp_store (model, id, payload, grant_id, uid, user_code, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
           user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
        [model, id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresAt],
      );
      if (++writes % 200 === 0) await db.query('DELETE FROM idp_store WHERE expires_at < now()');
    },
    find: (id) => row(`SELECT payload, consumed_at FROM idp_store WHERE model = $1 AND id = $2 ${live}`, [model, id]),
    findByUid: (uid) => row(`SELECT payload, consumed_at FROM idp_store WHERE model = $1 AND uid = $2 ${live}`, [model, uid]),
    findByUserCode: (code) => row(`SELECT payload, consumed_at FROM idp_store WHERE model = $1 AND user_code = $2 ${live}`, [model, code]),
    async consume(id) {
      await db.query('UPDATE idp_store SET consumed_at = now() WHERE model = $1 AND id = $2', [model, id]);
    },
    async destroy(id) {
      await db.query('DELETE FROM idp_store WHERE model = $1 AND id = $2', [model, id]);
    },
    async revokeByGrantId(grantId) {
      await db.query('DELETE FROM idp_store WHERE grant_id = $1', [grantId]);
    },
  });
}
