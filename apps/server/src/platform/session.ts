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
  /**
   * The identity provider's id_token for RP-initiated logout (`id_token_hint`), encrypted with the server key: a
   * database dump or a leaked cookie never holds a token the provider would accept as a hint.
   */
  idTokenEncrypted?: string | null;
}

export interface Session {
  token: string;
  user: SessionUser;
  /** Slides with activity, never past absoluteExpiresAt. */
  expiresAt: Date;
  /** Fixed at login: the session ends here whatever the keep-alive does (ASVS V7.3.2). */
  absoluteExpiresAt: Date;
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
    /** Absolute lifetime from login; 12 hours unless configured (SESSION_MAX_HOURS). */
    private readonly maxMs = 12 * 3_600_000,
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

  /** The sliding expiry from now, capped at the session's absolute end. */
  private expiry(absoluteExpiresAt: Date): Date {
    return new Date(Math.min(this.now().getTime() + this.minutes * 60_000, absoluteExpiresAt.getTime()));
  }

  async create(user: SessionUser): Promise<Session> {
    const token = randomToken();
    const absoluteExpiresAt = new Date(this.now().getTime() + this.maxMs);
    const expiresAt = this.expiry(absoluteExpiresAt);
    await this.db.query('INSERT INTO sessions (token_hash, user_data, expires_at, absolute_expires_at) VALUES ($1, $2, $3, $4)', [
      sha256(token),
      // jsonb refuses lone surrogates ("\ud800"), which JSON.stringify keeps: replace them, never fail the login.
      JSON.stringify(user, (_key, value: unknown) => (typeof value === 'string' ? value.replace(/\p{Cs}/gu, '\ufffd') : value)),
      expiresAt,
      absoluteExpiresAt,
    ]);
    return { token, user, expiresAt, absoluteExpiresAt };
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
    const rows = await this.db.query<{ user_data: SessionUser | string; expires_at: Date | string; absolute_expires_at: Date | string }>(
      'SELECT user_data, expires_at, absolute_expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2',
      [hash, this.now()],
    );
    const row = rows[0];
    if (!row) return null;
    const user = typeof row.user_data === 'string' ? (JSON.parse(row.user_data) as SessionUser) : row.user_data;
    const session = { token, user, expiresAt: new Date(row.expires_at), absoluteExpiresAt: new Date(row.absolute_expires_at) };
    if (this.cacheMs) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { session, readAt: now });
    }
    return { ...session };
  }

  /** Sliding expiry: every API call by the user moves the end of the session, up to its absolute end. */
  async touch(session: Session): Promise<Date> {
    const expiresAt = this.expiry(session.absoluteExpiresAt);
    const hash = sha256(session.token);
    await this.db.query('UPDATE sessions SET expires_at = least($2::timestamptz, absolute_expires_at) WHERE token_hash = $1', [hash, expiresAt]);
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
