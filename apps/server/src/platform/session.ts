import type { Feature, IdentityKind, MembershipRole, UserLevel } from '@videomote/contract/identity';
import type { Db } from './db.ts';
import { randomToken, sha256 } from './crypto.ts';

/** Who is behind a request, as the server knows it. Never sent whole to a browser (it holds the pin's hash). */
export interface SessionUser {
  kind: IdentityKind;
  /** The identity provider's subject (ciamSub). */
  subject: string;
  firstName: string;
  lastName: string;
  /** Agency staff id, for staff. */
  afId: string | null;
  /** Keyed hash and ciphertext of the personnummer, for e-ID users; see platform/crypto.ts. */
  pinHash: string | null;
  pinEncrypted: string | null;
  roles: MembershipRole[];
  features: Feature[];
  userLevel: UserLevel;
  isAdmin: boolean;
  /** An anonymous visitor's session is scoped to this one webcast. */
  meetingId: string | null;
  /** The identity provider's id_token, kept for RP-initiated logout. */
  idToken?: string | null;
}

export interface Session {
  token: string;
  user: SessionUser;
  expiresAt: Date;
}

export const SESSION_COOKIE = 'vm_session';

export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly minutes: number,
    private readonly now: () => Date,
  ) {}

  private expiry(): Date {
    return new Date(this.now().getTime() + this.minutes * 60_000);
  }

  async create(user: SessionUser): Promise<Session> {
    const token = randomToken();
    const expiresAt = this.expiry();
    await this.db.query('INSERT INTO sessions (token_hash, user_data, expires_at) VALUES ($1, $2, $3)', [
      sha256(token),
      // jsonb refuses lone surrogates ("\ud800"), which JSON.stringify keeps: replace them, never fail the login.
      JSON.stringify(user, (_key, value: unknown) => (typeof value === 'string' ? value.replace(/\p{Cs}/gu, '\ufffd') : value)),
      expiresAt,
    ]);
    return { token, user, expiresAt };
  }

  /** The live session for a cookie value, or null when unknown or expired. */
  async find(token: string): Promise<Session | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const rows = await this.db.query<{ user_data: SessionUser | string; expires_at: Date | string }>(
      'SELECT user_data, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2',
      [sha256(token), this.now()],
    );
    const row = rows[0];
    if (!row) return null;
    const user = typeof row.user_data === 'string' ? (JSON.parse(row.user_data) as SessionUser) : row.user_data;
    return { token, user, expiresAt: new Date(row.expires_at) };
  }

  /** Sliding expiry: every API call by the user moves the end of the session. */
  async touch(token: string): Promise<Date> {
    const expiresAt = this.expiry();
    await this.db.query('UPDATE sessions SET expires_at = $2 WHERE token_hash = $1', [sha256(token), expiresAt]);
    return expiresAt;
  }

  async destroy(token: string): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE token_hash = $1', [sha256(token)]);
  }

  async purgeExpired(): Promise<number> {
    const rows = await this.db.query('DELETE FROM sessions WHERE expires_at <= $1 RETURNING 1', [this.now()]);
    return rows.length;
  }
}
