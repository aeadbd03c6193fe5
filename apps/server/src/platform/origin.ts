import type { FastifyRequest } from 'fastify';

/**
 * Whether a WebSocket handshake may come from this request's page. SECURITY: a browser sends the session cookie with
 * a cross-site handshake too (WebSockets are not subject to CORS), so a foreign page could otherwise open a member's
 * socket. Our own origin is PUBLIC_URL's, or the address the request reached (a test or an internal name);
 * non-browser clients send no Origin and are judged by their session alone.
 */
export function isOwnOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  return origin === new URL(publicUrl).origin || origin === `${request.protocol}://${request.host}`;
}
