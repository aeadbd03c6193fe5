import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Security headers for every answer. The CSP allows no inline or third-party script: the built web app loads
 * only its own files; media and chat sockets go to our own origin; camera streams are `mediastream:`/`blob:`.
 * Inline style attributes are allowed (React sets sizes per tile), inline style elements are not needed.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'mediastream:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        workerSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The camera and microphone are ours to ask for; nothing else is.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: app.deps.config.secureCookies ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('permissions-policy', 'camera=(self), microphone=(self), display-capture=(self), geolocation=(), payment=()');
  });
}
