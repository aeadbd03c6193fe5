import type { FastifyInstance } from 'fastify';

/**
 * The CSP allows no inline or third-party script: the built web app loads only its own files; media and chat
 * sockets go to our own origin only (its ws:/wss: form, from PUBLIC_URL: a bare `ws: wss:` would let an injected
 * script send anything to any host); camera streams are `mediastream:`/`blob:`. Inline style attributes are
 * allowed (React sets sizes per tile), inline style elements are not needed.
 */
export function contentSecurityPolicy(publicUrl: string): string {
  const origin = new URL(publicUrl);
  const socketOrigin = `${origin.protocol === 'https:' ? 'wss:' : 'ws:'}//${origin.host}`;
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob: mediastream:",
    `connect-src 'self' ${socketOrigin}`,
    "worker-src 'self' blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join(';');
}

/** The headers every answer carries: helmet's defaults (same names and values) with our CSP and permissions. */
export function securityHeaders(publicUrl: string): Record<string, string> {
  const secure = publicUrl.startsWith('https://');
  return {
    'content-security-policy': contentSecurityPolicy(publicUrl),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    ...(secure ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
    // The camera and microphone are ours to ask for; nothing else is.
    'permissions-policy': 'camera=(self), microphone=(self), display-capture=(self), geolocation=(), payment=()',
  };
}

/**
 * Security headers for every answer, errors and 404s included (set when the request arrives). Built once: helmet
 * assembled the same constant headers anew for every request, a measurable share of a busy API's CPU.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = securityHeaders(app.deps.config.publicUrl);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
