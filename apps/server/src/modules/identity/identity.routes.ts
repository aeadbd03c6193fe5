import type { FastifyInstance } from 'fastify';
import type { UserData } from '@videomote/contract/identity';
import { requireUser } from '../../platform/auth.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';

export async function identityRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/login/getuserdata', { config: { anonymousVisitor: true } }, async (request) => {
    const user = requireUser(request);
    const data: UserData = {
      ciamGivenName: user.firstName,
      ciamFamilyName: user.lastName,
      ciamSub: user.subject,
      afRole: user.roles,
      features: user.features,
      userLevel: user.userLevel,
      isAdmin: user.isAdmin,
      identityKind: user.kind,
      afId: user.afId,
      meetingId: user.meetingId,
    };
    return { data };
  });

  // The session was already slid by the auth hook; this call exists so the web can extend it on purpose.
  app.get('/api/login/keepalive', { config: { anonymousVisitor: true } }, async (request) => {
    const session = requireUser(request) && request.session!;
    return { data: { expiresAt: session.expiresAt.toISOString() } };
  });

  /** Ends the session; the string tells the web which identity provider environment to log out of. */
  app.get('/api/login/logout', { config: { anonymousVisitor: true } }, async (request, reply) => {
    if (request.session) await app.deps.sessions.destroy(request.session.token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { data: app.deps.config.environment };
  });
}
