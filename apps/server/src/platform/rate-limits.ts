import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { sha256 } from './crypto.ts';
import { AppError } from './errors.ts';
import { SESSION_COOKIE } from './session.ts';

/** Per-minute budgets. Generous for people, tight enough to blunt scripted abuse of login, tokens and writes. */
const LIMITS: { match: (method: string, url: string) => boolean; max: number }[] = [
  { match: (_m, url) => url.startsWith('/api/login/start') || url.startsWith('/api/login/callback'), max: 30 },
  { match: (_m, url) => url === '/api/meeting/gettoken' || url.startsWith('/api/publicaccess'), max: 30 },
  { match: (m, url) => url.startsWith('/api/') && m !== 'GET' && m !== 'HEAD', max: 120 },
];

/**
 * Rate limits on login, media tokens and every mutating API route, keyed by session when there is one (so a
 * whole office behind one NAT is not one bucket) and by address otherwise. Must run before routes register.
 */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  // Ours first: the plugin's own onRoute hook reads config.rateLimit when a route is added, so the budget must be
  // set before it looks (registered after it, no route was ever limited).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limit = LIMITS.find((l) => methods.some((m) => l.match(m, route.url)));
    if (!limit || route.config?.rateLimit !== undefined) return;
    route.config = { ...route.config, rateLimit: { max: limit.max, timeWindow: 60_000 } };
  });
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => {
      const token = request.cookies?.[SESSION_COOKIE];
      return token ? `s:${sha256(token)}` : `ip:${request.ip}`;
    },
    // Thrown by the plugin: an AppError, so the one error handler answers it in our shape (name TooManyRequests).
    errorResponseBuilder: () => new AppError('TooManyRequests', 'För många förfrågningar, försök igen om en stund'),
  });
}
