import type { FastifyInstance } from 'fastify';
import client from 'prom-client';

/** Health checks a module contributes to /readyz (database is built in; media and chat add theirs). */
export type ReadinessCheck = () => Promise<boolean>;

export interface Observability {
  registry: client.Registry;
  addReadinessCheck(name: string, check: ReadinessCheck): void;
  /** Gauges whose value a module reads on each scrape (active meetings, sockets, rooms, publishers). */
  addGauge(name: string, help: string, read: () => number | Promise<number>): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    observability: Observability;
  }
}

/**
 * `/healthz` (alive; public, and internal too), and on the internal listener only `/readyz` (dependencies
 * reachable) and Prometheus `/metrics`: which dependency is down and how busy the instance is are for operators.
 */
export async function registerObservability(app: FastifyInstance): Promise<void> {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route pattern',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const checks = new Map<string, ReadinessCheck>();
  checks.set('database', async () => {
    await app.deps.db.query('SELECT 1');
    return true;
  });

  app.decorate('observability', {
    registry,
    addReadinessCheck: (name, check) => void checks.set(name, check),
    addGauge(name, help, read) {
      new client.Gauge({ name, help, registers: [registry], async collect() { this.set(await read()); } });
    },
  });

  // Cluster messages from Redis that were not acted on (unsigned, forged, replayed late): a count above 0 means
  // something other than our nodes writes to Redis.
  new client.Counter({
    name: 'videomote_cluster_messages_dropped_total',
    help: 'Messages on the cluster bus dropped because they were malformed, unsigned, badly signed or too old',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(app.deps.bus.dropped())) this.inc({ reason }, n);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the URL: URLs can hold ids and search terms.
    const route = request.routeOptions.url ?? 'unmatched';
    httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const { internal } = app;
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  internal.get('/healthz', async () => ({ status: 'ok' }));
  internal.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const results: Record<string, boolean> = {};
    await Promise.all(
      [...checks].map(async ([name, check]) => {
        results[name] = await Promise.race([
          check().catch(() => false),
          new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref()),
        ]);
      }),
    );
    const ready = Object.values(results).every(Boolean);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: results });
  });
  internal.get('/metrics', async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
