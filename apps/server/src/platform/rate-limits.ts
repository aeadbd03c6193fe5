import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { sha256 } from './crypto.ts';
import { AppError } from './errors.ts';

/** Searches of the staff directory one person may make a minute. */
export const EMPLOYEE_SEARCHES_PER_MINUTE = 60;

/**
 * Per-minute budgets. Generous for people, tight enough to blunt scripted abuse of login, tokens and writes.
 * Routes that make a new session (login, public access) are counted by address even for a caller with a session:
 * each new session would otherwise bring a fresh budget of its own.
 */
const LIMITS: { match: (method: string, url: string) => boolean; max: number; byAddress?: true; byPerson?: true }[] = [
  { match: (_m, url) => url.startsWith('/api/login/start') || url.startsWith('/api/login/callback'), max: 30, byAddress: true },
  { match: (_m, url) => url.startsWith('/api/publicaccess'), max: 30, byAddress: true },
  { match: (_m, url) => url === '/api/meeting/gettoken', max: 30 },
  // The staff directory: a person types a handful of searches per colleague (3+ characters, 300 ms debounce, each
  // answer cached by the browser); a script walking three-letter prefixes needs thousands. Counted per person, so
  // logging in again brings no fresh budget.
  { match: (_m, url) => url.startsWith('/api/employee/'), max: EMPLOYEE_SEARCHES_PER_MINUTE, byPerson: true },
  { match: (m, url) => url.startsWith('/api/') && m !== 'GET' && m !== 'HEAD', max: 120 },
];

/**
 * The bucket of a request: its session when it has a valid one (so a whole office behind one NAT is not one
 * bucket), its address otherwise. Never the raw cookie: any made-up cookie value would be a fresh bucket.
 * Runs after the auth hook has looked the session up (route-level hooks follow the app's).
 */
export function rateLimitKey(request: FastifyRequest): string {
  return request.session ? `s:${sha256(request.session.token)}` : `ip:${request.ip}`;
}

const addressKey = (request: FastifyRequest) => `ip:${request.ip}`;

/**
 * The bucket of one person across their sessions: staff by agency id, others by the identity provider's subject.
 * Without a session the address (the route refuses such a caller anyway).
 */
export function personKey(request: FastifyRequest): string {
  const user = request.session?.user;
  if (!user) return addressKey(request);
  return `p:${sha256(user.afId ? `af:${user.afId}` : `sub:${user.kind}:${user.subject}`)}`;
}

/**
 * Rate limits on login, media tokens and every mutating API route (see rateLimitKey). Must run before routes register.
 * With REDIS_URL the counters live in Redis, so a budget holds across all the nodes behind the proxy: counted per
 * process, two nodes would each grant the whole budget. Without it they live in this process's memory.
 */
export async function registerRateLimits(app: FastifyInstance, redisUrl: string | null = null): Promise<Redis | null> {
  // Ours first: the plugin's own onRoute hook reads config.rateLimit when a route is added, so the budget must be
  // set before it looks (registered after it, no route was ever limited).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limit = LIMITS.find((l) => methods.some((m) => l.match(m, route.url)));
    if (!limit || route.config?.rateLimit !== undefined) return;
    route.config = {
      ...route.config,
      rateLimit: { max: limit.max, timeWindow: 60_000, ...(limit.byAddress ? { keyGenerator: addressKey } : limit.byPerson ? { keyGenerator: personKey } : {}) },
    };
  });
  let redis: Redis | null = null;
  if (redisUrl) {
    // Bounded: a request waits for the limiter, so a Redis outage must not hold it for long.
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectTimeout: 2_000 });
    // ioredis reconnects by itself; an 'error' without a listener would end the process.
    redis.on('error', () => {});
    app.addHook('onClose', async () => void redis?.disconnect());
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis
      ? {
          redis,
          nameSpace: 'vm:rate:',
          // Redis unreachable: requests go through unlimited for that time rather than all failing.
          skipOnError: true,
        }
      : {}),
    keyGenerator: rateLimitKey,
    // Thrown by the plugin: an AppError, so the one error handler answers it in our shape (name TooManyRequests).
    errorResponseBuilder: () => new AppError('TooManyRequests', 'För många förfrågningar, försök igen om en stund'),
  });
  // The same client keeps the media module's counts of what each person holds (socket-holds.ts).
  return redis;
}
