import type { Feature, IdentityKind, MembershipRole, UserLevel } from '@videomote/contract/identity';
import type { Db } from './db.ts';
import { randomToken, sha256 } from './crypto.ts';
import type { ClusterBus } from './cluster-bus.ts';

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

/** Sessions remembered in this process, at most this many (the oldest forgotten first). */
const CACHE_MAX_ENTRIES = 10_000;

/**
 * Sessions live in the database, so any node behind the load balancer can serve any request. Each node also keeps
 * the sessions it has just read for `cacheMs`: every API call starts with a session lookup, and without the cache
 * that is one database round trip per call (half of all queries on the busiest pages). A logout is immediate here
 * and, through the cluster bus, on the other nodes; without the bus (Redis unreachable) within `cacheMs`.
 */
export class SessionStore {
  /** By the token's hash, as the database keys it and as the other nodes name an ended session. */
  private readonly cache = new Map<string, { session: Session; readAt: number }>();
  private readonly endedListeners = new Set<(tokenHash: string) => void>();

  constructor(
    private readonly db: Db,
    private readonly minutes: number,
    private readonly now: () => Date,
    private readonly cacheMs = 0,
    private readonly bus?: ClusterBus,
  ) {
    bus?.on('sessions-ended', (tokenHash) => {
      this.cache.delete(tokenHash);
      this.notifyEnded(tokenHash);
    });
  }

  /** A session ended by a logout, in this process or another: live sockets of it close (media, by the token's hash). */
  onEnded(listener: (tokenHash: string) => void): void {
    this.endedListeners.add(listener);
  }

  private notifyEnded(tokenHash: string): void {
    for (const listener of this.endedListeners) {
      try {
        listener(tokenHash);
      } catch {
        /* one module's failure does not keep the others from hearing it */
      }
    }
  }

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
    const now = this.now().getTime();
    const hash = sha256(token);
    const cached = this.cache.get(hash);
    if (cached && now - cached.readAt < this.cacheMs && cached.session.expiresAt.getTime() > now) {
      // A copy: callers may change expiresAt on theirs.
      return { ...cached.session };
    }
    this.cache.delete(hash);
    const rows = await this.db.query<{ user_data: SessionUser | string; expires_at: Date | string }>(
      'SELECT user_data, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2',
      [hash, this.now()],
    );
    const row = rows[0];
    if (!row) return null;
    const user = typeof row.user_data === 'string' ? (JSON.parse(row.user_data) as SessionUser) : row.user_data;
    const session = { token, user, expiresAt: new Date(row.expires_at) };
    if (this.cacheMs) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { session, readAt: now });
    }
    return { ...session };
  }

  /** Sliding expiry: every API call by the user moves the end of the session. */
  async touch(token: string): Promise<Date> {
    const expiresAt = this.expiry();
    const hash = sha256(token);
    await this.db.query('UPDATE sessions SET expires_at = $2 WHERE token_hash = $1', [hash, expiresAt]);
    const cached = this.cache.get(hash);
    if (cached) cached.session = { ...cached.session, expiresAt };
    return expiresAt;
  }

  async destroy(token: string): Promise<void> {
    const hash = sha256(token);
    this.cache.delete(hash);
    await this.db.query('DELETE FROM sessions WHERE token_hash = $1', [hash]);
    this.notifyEnded(hash);
    await this.bus?.publish('sessions-ended', hash).catch(() => {});
  }

  async purgeExpired(): Promise<number> {
    const rows = await this.db.query('DELETE FROM sessions WHERE expires_at <= $1 RETURNING 1', [this.now()]);
    return rows.length;
  }
}
