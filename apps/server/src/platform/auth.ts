import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Feature } from '@videomote/contract/identity';
import { forbidden, unauthorized } from './errors.ts';
import { SESSION_COOKIE, type Session, type SessionUser } from './session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** Routes an anonymous webcast visitor may call; every other API route refuses such a session. */
    anonymousVisitor?: boolean;
    /** Routes that must not slide the session nor stamp APILastCall: background polls, health checks. */
    skipSessionTouch?: boolean;
  }
}

/**
 * Whether a request is for the API, decided on the route the router matched: the router decodes the path, so
 * `/%61pi/meeting` reaches `/api/meeting` while its raw URL does not start with `/api/` and skipped every check
 * that asked the URL. A request no route matched (a 404 to be) is judged by its URL.
 */
export function isApiRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.url ?? request.url).startsWith('/api/');
}

export const API_LAST_CALL_COOKIE = 'APILastCall';
const SLIDE_STEP_MS = 15_000;

/**
 * Resolves the session for every request and, on API calls, slides it and stamps `APILastCall` (read by the web's
 * inactivity countdown). Anonymous visitors are fenced to the routes that say they accept them.
 */
export async function registerAuth(app: FastifyInstance): Promise<void> {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    request.session = token ? await app.deps.sessions.find(token) : null;
    if (!isApiRoute(request)) return;
    if (request.session?.user.kind === 'anonymous' && !request.routeOptions.config?.anonymousVisitor) {
      throw forbidden('Inte tillåtet för besökare');
    }
    // Background polls (the system-message banner) are not the user's activity: they neither slide the session
    // nor move APILastCall, or the inactivity logout would never come.
    if (request.routeOptions.config?.skipSessionTouch) return;
    const now = app.deps.now().getTime();
    let lastCall = now;
    if (request.session) {
      // Slide the session at most every SLIDE_STEP_MS: a burst of API calls then costs one write, not one each.
      // APILastCall is derived from the stored expiry, so the web's countdown never outlives the server's session.
      // Near the absolute end (SESSION_MAX_HOURS) there is nothing left to slide: no write at all.
      const lifetime = app.deps.config.sessionMinutes * 60_000;
      const { expiresAt: current, absoluteExpiresAt } = request.session;
      if (current.getTime() - now < lifetime - SLIDE_STEP_MS && current.getTime() < absoluteExpiresAt.getTime()) {
        const expiresAt = await app.deps.sessions.touch(request.session);
        request.session.expiresAt = expiresAt;
        setSessionCookie(app, reply, request.session.token, expiresAt);
      }
      lastCall = request.session.expiresAt.getTime() - lifetime;
    }
    reply.setCookie(API_LAST_CALL_COOKIE, String(lastCall), {
      path: '/',
      sameSite: 'lax',
      secure: app.deps.config.secureCookies,
    });
  });
}

export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.deps.config.secureCookies,
    expires: expiresAt,
  });
}

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.session) throw unauthorized();
  return request.session.user;
}

/** A signed-in person (staff or e-ID), not an anonymous visitor. */
export function requirePerson(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (user.kind === 'anonymous') throw forbidden();
  return user;
}

export function requireAdmin(request: FastifyRequest): SessionUser {
  const user = requirePerson(request);
  if (!user.isAdmin) throw forbidden();
  return user;
}

export function requireFeature(request: FastifyRequest, feature: Feature): SessionUser {
  const user = requirePerson(request);
  if (!user.features.includes(feature)) throw forbidden();
  return user;
}
