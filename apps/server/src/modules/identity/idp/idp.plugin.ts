// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- oidc-provider ships no types; this pulls our declaration into every project that compiles this file (e2e too).
/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { checkPersonnummer, pinErrorMessage } from '@videomote/contract/personnummer';
import { Type } from 'typebox';
import { typed } from '../../../platform/typed-routes.ts';
import { PERSONAS } from '../personas.ts';
import { databaseAdapter } from './idp-adapter.ts';
import { accountForPersona, IdpAccountRepository, subForPin, type IdpAccount } from './idp-accounts.ts';
import { loadIdpKeys } from './idp-keys.ts';
import { IDP_CSS, IDP_LOGOUT_JS, idpErrorPage, loggedOutPage, loginPage, logoutPage, type LoginFormState } from './idp-pages.ts';

const InteractionParams = Type.Object({ uid: Type.String({ maxLength: 200 }) });
// The login page's form: a persona button, or a personnummer with a name and roles.
const LoginForm = Type.Record(Type.String(), Type.String({ maxLength: 1000 }));

export const IDP_PATH = '/idp';
export const IDP_CLIENT_ID = 'videomote';

/** What our own OIDC client needs to talk to the embedded IdP. */
export interface EmbeddedIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const SCOPE_CLAIMS = ['given_name', 'family_name', 'roles', 'af_id', 'pin'];

/**
 * The embedded test IdP (oidc-provider) at /idp, used only while no OIDC_ISSUER is configured. Our client logs in
 * through it exactly as it would through the agency's real provider: authorization code, PKCE, state and nonce.
 * Its routes are Koa's, so Fastify only hands over the raw request: no body parsing, no anti-forgery (not /api),
 * no JSON 404.
 */
export async function registerEmbeddedIdp(app: FastifyInstance): Promise<EmbeddedIdp> {
  const { config, db, pins } = app.deps;
  const keys = loadIdpKeys(config.dataDir);
  const issuer = `${config.publicUrl}${IDP_PATH}`;
  const accounts = new IdpAccountRepository(db, pins);

  const provider = new Provider(issuer, {
    adapter: databaseAdapter(db),
    clients: [
      {
        client_id: IDP_CLIENT_ID,
        client_secret: keys.clientSecret,
        client_name: 'Videomöte',
        redirect_uris: [`${config.publicUrl}/api/login/callback`],
        post_logout_redirect_uris: [`${config.publicUrl}/`, config.agencyHomeUrl],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: keys.jwks,
    cookies: { keys: keys.cookieKeys },
    pkce: { required: () => true },
    scopes: ['openid', 'profile', 'videomote'],
    claims: { openid: ['sub'], profile: ['given_name', 'family_name'], videomote: ['roles', 'af_id', 'pin'] },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
          ctx.type = 'html';
          ctx.body = loggedOutPage();
        },
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${IDP_PATH}/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const account = await accounts.find(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          given_name: account.givenName,
          family_name: account.familyName,
          roles: account.roles,
          af_id: account.afId,
          pin: account.pin,
        }),
      };
    },
    // A first-party test client: the user is never asked to consent to our own claims.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const clientId = ctx.oidc.client!.clientId;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid profile videomote');
      grant.addOIDCClaims(SCOPE_CLAIMS);
      await grant.save();
      return grant;
    },
    async renderError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }) {
      ctx.type = 'html';
      ctx.body = idpErrorPage(out.error ?? 'server_error', out.error_description);
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 3600, Interaction: 1800, Session: 8 * 3600, Grant: 8 * 3600 },
    clientBasedCORS: () => false,
  });
  // Also swept hourly, so nothing lingers on a server nobody logs in to.
  const sweep = setInterval(() => {
    accounts
      .forgetOld()
      .then(() => db.query('DELETE FROM idp_store WHERE expires_at < now()'))
      .catch((err: unknown) => app.log.warn({ err }, 'embedded IdP sweep failed'));
  }, 3_600_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  // Behind a TLS proxy the scheme and host arrive in X-Forwarded-*; Fastify trusts them too (trustProxy).
  provider.proxy = true;
  provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'embedded IdP error'));

  await app.register(async (scope) => {
    // The interaction (login) pages: our own HTML forms.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    scope.get(`${IDP_PATH}/assets/idp.css`, async (_request, reply) => reply.type('text/css; charset=utf-8').header('cache-control', 'max-age=3600').send(IDP_CSS));

    scope.get(`${IDP_PATH}/assets/logout.js`, async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'max-age=3600').send(IDP_LOGOUT_JS),
    );

    const pages = typed(scope);
    pages.get(`${IDP_PATH}/interaction/:uid`, { schema: { params: InteractionParams } }, async (request, reply) => {
      const details = await interaction(provider, request.params.uid, request, reply);
      if (!details) return;
      return html(reply, 200, loginPage(details.uid));
    });

    pages.post(`${IDP_PATH}/interaction/:uid/login`, { schema: { params: InteractionParams, body: LoginForm } }, async (request, reply) => {
      const details = await interaction(provider, request.params.uid, request, reply);
      if (!details) return;
      const form: Partial<Record<string, string>> = request.body ?? {};
      let account: IdpAccount;
      if (form.persona) {
        const persona = PERSONAS.find((p) => p.key === form.persona);
        if (!persona) return html(reply, 400, loginPage(details.uid));
        account = accountForPersona(persona, pins);
      } else {
        const state: LoginFormState = { pin: form.pin ?? '', name: (form.name ?? '').trim(), roles: form.roles ?? '', errors: {} };
        const check = checkPersonnummer(state.pin ?? '', app.deps.now());
        if (!check.ok) state.errors!.pin = check.reason === 'coordination' ? pinErrorMessage(check) : 'Ange ett giltigt personnummer';
        const words = state.name!.split(/\s+/).filter(Boolean);
        if (words.length < 2 || state.name!.length > 100) state.errors!.name = 'Ange förnamn och efternamn';
        if (!check.ok || state.errors!.name) return html(reply, 400, loginPage(details.uid, state));
        account = {
          sub: subForPin(check.pin, pins),
          givenName: words.slice(0, -1).join(' '),
          familyName: words.at(-1)!,
          roles: (state.roles ?? '').trim().slice(0, 500) || 'Participant',
          afId: null,
          pin: check.pin,
        };
      }
      await accounts.save(account);
      const returnTo = await provider.interactionResult(request.raw, reply.raw, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
      return reply.redirect(returnTo, 303);
    });

    pages.post(`${IDP_PATH}/interaction/:uid/abort`, { schema: { params: InteractionParams } }, async (request, reply) => {
      const details = await interaction(provider, request.params.uid, request, reply);
      if (!details) return;
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'Inloggningen avbröts' },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(returnTo, 303);
    });
  });

  await app.register(async (scope) => {
    // Koa reads the body itself: leave the stream untouched for every content type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const callback = provider.callback();
    const handler = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      const full = raw.url ?? '/';
      const rest = full.slice(IDP_PATH.length);
      // Mounted under /idp: the provider routes on the remainder and rebuilds its URLs from originalUrl.
      raw.originalUrl = full;
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      callback(raw, reply.raw);
    };
    scope.all(IDP_PATH, handler);
    scope.all(`${IDP_PATH}/*`, handler);
  });

  return { issuer, clientId: IDP_CLIENT_ID, clientSecret: keys.clientSecret };
}

/** The interaction behind this browser's cookie, or an error page when it is gone (expired, finished, other tab). */
async function interaction(provider: Provider, uid: string, request: FastifyRequest, reply: FastifyReply) {
  try {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    return details;
  } catch {
    html(reply, 400, idpErrorPage('invalid_request', 'Inloggningen har gått ut eller är redan avslutad'));
    return null;
  }
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}
