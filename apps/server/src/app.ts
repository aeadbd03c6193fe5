import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import type { Config } from './platform/config.ts';
import { migrate, openPglite, openPostgres, type Db } from './platform/db.ts';
import { secureDataDir } from './platform/data-dir.ts';
import { loadSecretKey, pinCrypto, type PinCrypto } from './platform/crypto.ts';
import { SessionStore } from './platform/session.ts';
import { MeetingEvents } from './platform/meeting-events.ts';
import { clusterKey, openClusterBus, type ClusterBus } from './platform/cluster-bus.ts';
import { registerAuth } from './platform/auth.ts';
import { registerAntiforgery } from './platform/antiforgery.ts';
import { frameworkErrors, registerErrorHandling } from './platform/http-errors.ts';
import { clientConfigOf, registerClientConfig, withClientConfig } from './platform/client-config.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { registerObservability } from './platform/observability.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { registerInternalServer } from './platform/internal-server.ts';
import { tlsOptions } from './platform/tls.ts';
import { registerRateLimits } from './platform/rate-limits.ts';
import { memorySocketHolds, redisSocketHolds, type SocketHolds } from './platform/socket-holds.ts';
import { PAGE_PRELOADS, preloadFiles, withPreloads, type BuildManifest } from './platform/page-preloads.ts';
import type { FirstScreen } from '@videomote/contract/first-screens';
import { firstScreenFor, firstScreenPattern, withFirstScreen } from './platform/first-screens.ts';
import { identityRoutes } from './modules/identity/identity.routes.ts';
import { feedbackRoutes } from './modules/feedback/feedback.routes.ts';
import { messagesRoutes } from './modules/messages/messages.routes.ts';
import { pollsRoutes } from './modules/polls/polls.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { meetingsRoutes } from './modules/meetings/meetings.routes.ts';
import { directoryRoutes } from './modules/directory/directory.routes.ts';
import { createEmployeeDirectory, type EmployeeDirectory } from './modules/directory/employee-directory.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { lobbyRoutes } from './modules/lobby/lobby.routes.ts';
import { chatRoutes } from './modules/chat/chat.routes.ts';
import { registerRetention } from './modules/retention/retention.plugin.ts';

export interface Deps {
  config: Config;
  db: Db;
  pins: PinCrypto;
  sessions: SessionStore;
  /** The clock every rule reads, so tests can move time. */
  now: () => Date;
  /** Booking changes the live modules act on (a participant removed, a meeting deleted), from any process. */
  events: MeetingEvents;
  /** Messages between the server processes behind the load balancer. */
  bus: ClusterBus;
  /** Agency staff: the embedded list, or the agency's directory over LDAP (LDAP_URL). */
  directory: EmployeeDirectory;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    /** What each person, session and address holds of the media servers, counted where the rate limits count. */
    socketHolds: SocketHolds;
  }
}

export interface BuildOptions {
  config: Config;
  /** An open database; when absent, one is opened from the configuration. */
  db?: Db;
  now?: () => Date;
  logger?: boolean;
  /** Where log lines go instead of stdout, at `config.logLevel` (tests that read what the server logs). */
  logStream?: { write(line: string): void };
}

// WEB_DIST lets a test run serve its own build of the web app.
const webDist = process.env.WEB_DIST || path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export async function openDatabase(config: Config): Promise<Db> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(path.join(config.dataDir, 'db'));
}

/** Builds the whole server without listening: server.ts listens, tests use `inject` or listen on port 0. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const tls = config.tls ? tlsOptions(config.tls) : null;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            // Personal data never reaches the logs: no cookies, no bodies, no query strings with names.
            redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-xsrf-token"]'],
            // Paths only: query strings carry one-time login codes and return URLs.
            serializers: {
              req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: req.url.split('?')[0], id: req.id }),
            },
          },
    genReqId: () => crypto.randomUUID(),
    ...(tls ? { https: tls } : {}),
    bodyLimit: 256 * 1024,
    trustProxy: config.trustProxy,
    frameworkErrors,
  });

  secureDataDir(config.dataDir);
  const db = options.db ?? (await openDatabase(config));
  // Again once the embedded database is open: PGlite sets 0666 on the files it creates, whatever the umask.
  // Those it adds later are still out of others' reach, inside the 0700 folder.
  if (!options.db && !config.databaseUrl) secureDataDir(config.dataDir);
  await migrate(db);
  const now = options.now ?? (() => new Date());
  const secretKey = loadSecretKey(config.dataDir, config.pinKey);
  const pins = pinCrypto(secretKey);
  const bus = openClusterBus(config.redisUrl, clusterKey(config.clusterSecret, secretKey));
  app.addHook('onClose', async () => bus.close());
  const directory = createEmployeeDirectory(config.ldap, app.log.child({ module: 'directory' }));
  app.addHook('onClose', async () => directory.close?.());
  app.decorate('deps', {
    config,
    db,
    pins,
    sessions: new SessionStore(db, config.sessionMinutes, now, config.sessionCacheSeconds * 1000, bus, config.sessionMaxHours * 3_600_000),
    now,
    events: new MeetingEvents(bus),
    bus,
    directory,
  });
  if (!options.db) app.addHook('onClose', async () => db.close());

  registerInternalServer(app, config.metricsToken, tls);
  registerErrorHandling(app);
  await registerSecurityHeaders(app);
  await registerOpenApi(app);
  await app.register(cookie);
  const rateRedis = await registerRateLimits(app, config.redisUrl);
  app.decorate('socketHolds', rateRedis ? redisSocketHolds(rateRedis) : memorySocketHolds());
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await registerAuth(app);
  await registerAntiforgery(app);

  await registerObservability(app);
  await registerClientConfig(app);
  await registerRetention(app);

  // Domain modules. Each owns its routes, rules and SQL.
  await app.register(identityRoutes);
  await app.register(feedbackRoutes);
  await app.register(messagesRoutes);
  await app.register(pollsRoutes);
  await app.register(adminRoutes);
  await app.register(statsRoutes);
  await app.register(meetingsRoutes);
  await app.register(directoryRoutes);
  await app.register(mediaRoutes);
  await app.register(lobbyRoutes);
  await app.register(chatRoutes);

  await registerWeb(app);
  return app;
}

/** A Vite build output name: name-<hash>.ext (and its .br/.gz). */
const HASHED_ASSET = /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.(br|gz))?$/;

/** The built React app with SPA fallback; API-looking paths that match nothing get a JSON 404. */
async function registerWeb(app: FastifyInstance): Promise<void> {
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each large asset (apps/web/vite.config.ts); sent to browsers that accept them.
      preCompressed: true,
      // Built assets have content hashes in their names: they never change, so browsers keep them for a year.
      setHeaders(reply, filePath) {
        if (HASHED_ASSET.test(path.basename(filePath))) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  // Every page's HTML carries the client configuration; pages whose lazy code the HTML names get it fetched with the
  // app's bundle (page-preloads.ts).
  const index = hasWeb ? withClientConfig(fs.readFileSync(path.join(webDist, 'index.html'), 'utf8'), clientConfigOf(app.deps.config)) : '';
  const pageHtml: { path: RegExp; html: string }[] = [];
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  if (hasWeb && fs.existsSync(manifestFile)) {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BuildManifest;
    for (const p of PAGE_PRELOADS) pageHtml.push({ path: p.path, html: withPreloads(index, preloadFiles(manifest, p.sources, p.libraries)) });
  }
  // The pages' first screens, painted from the HTML before the app has started (first-screens.ts).
  const firstScreensFile = path.join(webDist, 'first-screens.json');
  const firstScreens = hasWeb && fs.existsSync(firstScreensFile) ? (JSON.parse(fs.readFileSync(firstScreensFile, 'utf8')) as FirstScreen[]).map((s) => ({ ...s, pattern: firstScreenPattern(s.path) })) : [];
  app.setNotFoundHandler((request, reply) => {
    const apiLike = /^\/(api|idp|media|chat|metrics|healthz|readyz)(\/|$)/.test(request.url);
    // A built file that is not there (a tab still on the previous version asking for a replaced chunk) is a 404,
    // never index.html: HTML served as a script fails with a MIME error and a blank page. /assets/config/config.json
    // is a route of its own and never reaches this handler.
    const missingAsset = /^\/assets\//.test(request.url);
    if (apiLike || missingAsset || request.method !== 'GET' || !hasWeb) {
      return reply.status(404).send({ name: 'NotFound', message: 'Hittades inte', statusCode: 404 });
    }
    reply.setCookie('api-endpoint', '/', { path: '/', sameSite: 'lax' });
    if (!request.cookies.authenticationvariant) reply.setCookie('authenticationvariant', 'CIAM', { path: '/', sameSite: 'lax' });
    const html = pageHtml.find((p) => p.path.test(request.url))?.html ?? index;
    const screen = firstScreenFor(firstScreens, request.url, request.headers['accept-language'], app.deps.config.webLanguages);
    // Vary: an external screen is sent with its first screen or without, by the browser's languages.
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'Accept-Language');
    if (!screen) return reply.send(html);
    return reply.send(withFirstScreen(html, request.cookies.acceptcookies === 'true' ? screen.html : screen.htmlWithCookieNotice, screen.title, { loading: screen.loading }));
  });
}
