import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { LogoutEnvironment, SessionExpiry, UserData } from '@videomote/contract/identity';
import { requireUser, setSessionCookie } from '../../platform/auth.ts';
import { validationError } from '../../platform/errors.ts';
import { answers, redirect, typed } from '../../platform/typed-routes.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';
import { registerEmbeddedIdp } from './idp/idp.plugin.ts';
import { inProcessFetch, OidcClient } from './oidc-client.ts';
import { LoginStateRepository } from './login-state.repository.ts';
import { safeReturnUrl } from './return-url.ts';
import { sessionUserFromClaims } from './session-user.ts';
// Grupper: the admin's table of what each role grants, applied at every login.
import { loadRoleGrants } from '../admin/role-grants.ts';

const LOGIN_STATE_COOKIE = 'vm_login';
const LOGOUT_HINT_COOKIE = 'vm_logout';
const LOGIN_TTL_MS = 10 * 60_000;

// The web sends `{ data: null }`: a JSON body like every other write, so a form post or text/plain is refused.
const LogoutBody = Type.Object({ data: Type.Optional(Type.Unknown()) });
const UserDataQuery = Type.Object({ optional: Type.Optional(Type.Boolean()) });
const StartQuery = Type.Object({ returnUrl: Type.Optional(Type.String({ maxLength: 2000 })) });
const CallbackQuery = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 200 })),
    code: Type.Optional(Type.String({ maxLength: 2000 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);

export async function identityRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { config } = app.deps;
  // Without OIDC_ISSUER the embedded test IdP is the provider; with it, the agency's own.
  const idp = config.oidc ?? (await registerEmbeddedIdp(app));
  const oidcClient = new OidcClient({
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    redirectUri: `${config.publicUrl}/api/login/callback`,
    // Booking spec §4: after the provider's logout the browser ends on the agency's home page, not on a guarded
    // page of ours that would send it straight back to the provider's login.
    postLogoutRedirectUri: config.agencyHomeUrl,
    extraParams: config.oidc ? {} : { prompt: 'login' },
    fetch: config.oidc ? undefined : inProcessFetch(app, config.publicUrl),
  });
  const loginStates = new LoginStateRepository(app.deps.db, app.deps.now);
  const cookieBase = { path: '/api/login', httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies };

  /** Starts a login at the identity provider; the browser comes back to `returnUrl` (a path on this site only). */
  app.get(
    '/api/login/start',
    { config: { anonymousVisitor: true }, schema: { querystring: StartQuery, response: redirect('To the identity provider, which comes back to /api/login/callback') } },
    async (request, reply) => {
      const returnUrl = safeReturnUrl(request.query.returnUrl);
      if (!returnUrl) throw validationError([{ fields: ['returnUrl'], message: 'Ogiltig returadress' }]);
      let begun;
      try {
        begun = await oidcClient.begin();
      } catch (err) {
        // The provider is unreachable (discovery failed): the web's gateway-timeout page, not a raw 500.
        request.log.warn({ reason: (err as Error).message }, 'identity provider unavailable');
        return reply.header('cache-control', 'no-store').redirect('/error?status=504', 302);
      }
      const { url, pending } = begun;
      await loginStates.save(pending, returnUrl, LOGIN_TTL_MS);
      // The state is also bound to this browser, so a callback URL planted by someone else logs nobody in.
      reply.setCookie(LOGIN_STATE_COOKIE, pending.state, { ...cookieBase, maxAge: LOGIN_TTL_MS / 1000 });
      return reply.header('cache-control', 'no-store').redirect(url.href, 302);
    },
  );

  app.get(
    '/api/login/callback',
    { config: { anonymousVisitor: true }, schema: { querystring: CallbackQuery, response: redirect('To the returnUrl the login began with, or /error?status=401') } },
    async (request, reply) => {
      const failed = () => reply.header('cache-control', 'no-store').redirect('/error?status=401', 302);
      const bound = request.cookies[LOGIN_STATE_COOKIE];
      reply.clearCookie(LOGIN_STATE_COOKIE, cookieBase);
      const { state } = request.query;
      if (!state || !bound || bound !== state) return failed();
      const pending = await loginStates.take(state);
      if (!pending) return failed();
      if (request.query.error) {
        request.log.info({ error: request.query.error }, 'login refused by the identity provider');
        return failed();
      }
      let result;
      try {
        result = await oidcClient.finish(new URL(request.url, config.publicUrl), pending);
      } catch (err) {
        // The message of an OIDC failure names no person; the claims are never logged.
        request.log.warn({ reason: (err as Error).message }, 'login callback failed');
        return failed();
      }
      // A new session for every login: an earlier one (say, an anonymous webcast visit) is not carried over.
      if (request.session) await app.deps.sessions.destroy(request.session.token);
      const grants = await loadRoleGrants(app.deps.db);
      // Only an encrypted copy of the id_token is kept, for the provider's logout (id_token_hint).
      const idTokenEncrypted = result.idToken ? app.deps.pins.encrypt(result.idToken) : null;
      const user = { ...sessionUserFromClaims(result.claims, app.deps.pins, grants), idTokenEncrypted };
      const session = await app.deps.sessions.create(user);
      setSessionCookie(app, reply, session.token, session.expiresAt);
      reply.setCookie('authenticationvariant', 'CIAM', { path: '/', sameSite: 'lax', secure: config.secureCookies });
      return reply.header('cache-control', 'no-store').redirect(pending.returnUrl, 302);
    },
  );

  app.get(
    '/api/login/getuserdata',
    { config: { anonymousVisitor: true }, schema: { querystring: UserDataQuery, response: answers(Type.Union([UserData, Type.Null()])) } },
    async (request) => {
      // The web's start-up probe asks with optional=true: on pages anyone may open (public access, help, error
      // pages), nobody signed in is an answer, not a 401 that the browser would log as an error on every visit.
      if (!request.session && request.query.optional) return { data: null };
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
    },
  );

  // The session was already slid by the auth hook; this call exists so the web can extend it on purpose.
  app.get('/api/login/keepalive', { config: { anonymousVisitor: true }, schema: { response: answers(SessionExpiry) } }, async (request) => {
    const session = requireUser(request) && request.session!;
    return { data: { expiresAt: session.expiresAt.toISOString() } };
  });

  /**
   * Ends the session; the string tells the web which identity provider environment to log out of. A POST with the
   * anti-forgery token: as a GET, any page could log our users out with a link or an image.
   */
  app.post('/api/login/logout', { config: { anonymousVisitor: true }, schema: { body: LogoutBody, response: answers(LogoutEnvironment) } }, async (request, reply) => {
    if (request.session) {
      await app.deps.sessions.destroy(request.session.token);
      // Kept briefly, still encrypted, so /api/login/endsession can tell the provider whose session to end.
      const hint = request.session.user.idTokenEncrypted;
      if (hint) reply.setCookie(LOGOUT_HINT_COOKIE, hint, { ...cookieBase, maxAge: 300 });
    }
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { data: app.deps.config.environment };
  });

  /** Where the web goes after logout: the provider's end-session endpoint, which then returns to our start page. */
  app.get('/api/login/endsession', { config: { anonymousVisitor: true }, schema: { response: redirect("To the identity provider's end-session endpoint, or the agency's home page") } }, async (request, reply) => {
    const hint = request.cookies[LOGOUT_HINT_COOKIE];
    reply.clearCookie(LOGOUT_HINT_COOKIE, cookieBase);
    let idToken: string | null = null;
    try {
      idToken = hint ? app.deps.pins.decrypt(hint) : null;
    } catch {
      // Not ours or tampered with: log out at the provider without a hint (it asks the user to confirm).
    }
    let target: URL | null = null;
    try {
      target = await oidcClient.endSessionUrl(idToken);
    } catch (err) {
      request.log.warn({ reason: (err as Error).message }, 'identity provider logout unavailable');
    }
    return reply.header('cache-control', 'no-store').redirect(target?.href ?? config.agencyHomeUrl, 302);
  });
}
