import * as oidc from 'openid-client';
import type { FastifyInstance } from 'fastify';
import type { IdentityClaims } from './session-user.ts';

/**
 * The only place that speaks OpenID Connect as a client (openid-client): authorization code with PKCE, state
 * and nonce. Discovery happens lazily on the first login and is retried after a failure, so the server starts
 * even while the identity provider is unreachable.
 */
export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** Extra authorization parameters (the embedded test IdP always asks, so one can switch persona). */
  extraParams?: Record<string, string>;
  /** How to reach the provider; the embedded one is reached in-process (see inProcessFetch). */
  fetch?: oidc.CustomFetch;
}

export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface LoginResult {
  claims: IdentityClaims;
  idToken: string | null;
}

export const SCOPE = 'openid profile videomote';

export class OidcClient {
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(private readonly options: OidcClientOptions) {}

  private configuration(): Promise<oidc.Configuration> {
    if (!this.discovered) {
      const { issuer, clientId, clientSecret, fetch } = this.options;
      const insecure = issuer.startsWith('http://');
      this.discovered = oidc
        .discovery(new URL(issuer), clientId, { client_secret: clientSecret }, oidc.ClientSecretBasic(clientSecret), {
          execute: insecure ? [oidc.allowInsecureRequests] : [],
          ...(fetch ? { [oidc.customFetch]: fetch } : {}),
        })
        .then((config) => {
          if (fetch) config[oidc.customFetch] = fetch;
          return config;
        })
        .catch((err: unknown) => {
          this.discovered = null;
          throw err;
        });
    }
    return this.discovered;
  }

  async begin(): Promise<{ url: URL; pending: PendingLogin }> {
    const config = await this.configuration();
    const pending: PendingLogin = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      scope: SCOPE,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
      ...this.options.extraParams,
    });
    return { url, pending };
  }

  /** Exchanges the code (checking state, nonce and PKCE) and reads the claims from id_token and userinfo. */
  async finish(callbackUrl: URL, pending: PendingLogin): Promise<LoginResult> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no id_token claims');
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    const claims = { ...idClaims, ...userinfo } as Record<string, unknown>;
    return {
      claims: {
        sub: String(claims.sub),
        given_name: typeof claims.given_name === 'string' ? claims.given_name : undefined,
        family_name: typeof claims.family_name === 'string' ? claims.family_name : undefined,
        roles: claims.roles,
        af_id: typeof claims.af_id === 'string' ? claims.af_id : null,
        pin: typeof claims.pin === 'string' ? claims.pin : null,
      },
      idToken: tokens.id_token ?? null,
    };
  }

  /** The provider's end-session URL that returns to our start page, or null when it has none. */
  async endSessionUrl(idToken: string | null): Promise<URL | null> {
    const config = await this.configuration();
    if (!config.serverMetadata().end_session_endpoint) return null;
    const params: Record<string, string> = { post_logout_redirect_uri: this.options.postLogoutRedirectUri, client_id: this.options.clientId };
    if (idToken) params.id_token_hint = idToken;
    return oidc.buildEndSessionUrl(config, params);
  }
}

/**
 * Reaches the embedded IdP without the network: requests to our own PUBLIC_URL are answered by `app.inject`, with
 * the Host and scheme of PUBLIC_URL so the provider builds the same URLs the browser sees. Works whatever
 * address the server listens on, and behind a proxy the server itself could not reach.
 */
export function inProcessFetch(app: FastifyInstance, publicUrl: string): oidc.CustomFetch {
  const base = new URL(publicUrl);
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== base.origin) return fetch(url, options as RequestInit);
    const headers: Record<string, string> = {};
    new Headers(options.headers as HeadersInit).forEach((value, key) => (headers[key] = value));
    headers.host = base.host;
    headers['x-forwarded-proto'] = base.protocol.replace(':', '');
    const body = options.body;
    const payload = body == null ? undefined : body instanceof URLSearchParams ? body.toString() : typeof body === 'string' ? body : Buffer.from(body as ArrayBuffer);
    const res = await app.inject({ method: options.method as 'GET', url: target.pathname + target.search, headers, payload });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) responseHeaders.append(key, String(v));
      else if (value !== undefined) responseHeaders.set(key, String(value));
    }
    const noBody = res.statusCode === 204 || res.statusCode === 304 || res.rawPayload.length === 0;
    return new Response(noBody ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: responseHeaders });
  };
}
