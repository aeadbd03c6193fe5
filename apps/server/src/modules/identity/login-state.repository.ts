import type { Db } from '../../platform/db.ts';
import type { PendingLogin } from './oidc-client.ts';

/** Logins in progress, keyed by their random state; each is taken once. */
export class LoginStateRepository {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  async save(pending: PendingLogin, returnUrl: string, ttlMs: number): Promise<void> {
    const now = this.now();
    await this.db.query('DELETE FROM login_states WHERE expires_at <= $1', [now]);
    await this.db.query('INSERT INTO login_states (state, code_verifier, nonce, return_url, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      pending.state,
      pending.codeVerifier,
      pending.nonce,
      returnUrl,
      new Date(now.getTime() + ttlMs),
    ]);
  }

  /** The pending login for this state, deleted in the same statement so a replayed callback finds nothing. */
  async take(state: string): Promise<(PendingLogin & { returnUrl: string }) | null> {
    const rows = await this.db.query<{ state: string; code_verifier: string; nonce: string; return_url: string }>(
      'DELETE FROM login_states WHERE state = $1 AND expires_at > $2 RETURNING state, code_verifier, nonce, return_url',
      [state, this.now()],
    );
    const r = rows[0];
    return r ? { state: r.state, codeVerifier: r.code_verifier, nonce: r.nonce, returnUrl: r.return_url } : null;
  }
}
