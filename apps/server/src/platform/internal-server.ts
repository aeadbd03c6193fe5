import Fastify, { type FastifyInstance } from 'fastify';

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

/** Made before the modules register, so each can add its internal routes; closed with the app. */
export function registerInternalServer(app: FastifyInstance): void {
  const internal = Fastify({ logger: false });
  app.decorate('internal', internal);
  app.addHook('onClose', async () => internal.close());
}
