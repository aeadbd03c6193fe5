import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TlsOptions } from './tls.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The internal listener: /metrics, /readyz and /api/docs for operators and Prometheus. It listens on its own
     * address (INTERNAL_HOST:INTERNAL_PORT, loopback by default), so the public port never shows the metrics,
     * dependency health or the full API description; tests reach it with `app.internal.inject`.
     */
    internal: FastifyInstance;
  }
}

/**
 * Paths of the internal listener that answer without the bearer token: the load balancer's health checks, which
 * say only up/down and which dependency is unreachable (true/false), nothing about the traffic or the API.
 */
const OPEN_PATHS = new Set(['/healthz', '/readyz']);

/**
 * Whether an Authorization header carries exactly `Bearer <token>`; compared in constant time, so the time of a
 * refusal tells nothing about how much of a guess was right.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const given = crypto.createHash('sha256').update(m[1]!).digest();
  const expected = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(given, expected);
}

/**
 * Made before the modules register, so each can add its internal routes; closed with the app. With a token
 * (METRICS_TOKEN) everything but the health checks asks for it; without one (only allowed on a loopback-only,
 * non-production install, see config.ts) the listener answers whoever can reach it on this machine.
 */
export function registerInternalServer(app: FastifyInstance, token: string | null = null, https: TlsOptions | null = null): void {
  // Served over TLS like the public listener when the node has a certificate (TLS_CERT_FILE).
  const internal = (https ? Fastify({ logger: false, https }) : Fastify({ logger: false })) as unknown as FastifyInstance;
  if (token) {
    internal.addHook('onRequest', async (request, reply) => {
      if (OPEN_PATHS.has(request.url.split('?')[0]!)) return;
      if (bearerMatches(request.headers.authorization, token)) return;
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="videomote-internal"')
        .send({ name: 'Unauthorized', message: 'Bearer token required', statusCode: 401 });
    });
  }
  app.decorate('internal', internal);
  app.addHook('onClose', async () => internal.close());
}
