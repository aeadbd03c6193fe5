import type { FastifyInstance } from 'fastify';
import { randomToken } from './crypto.ts';
import { forbidden } from './errors.ts';
import { Type } from 'typebox';
import { answers, typed } from './typed-routes.ts';
import { isApiRoute } from './auth.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/**
 * Anti-forgery in the Angular/ASP.NET manner: `GET /api/getantiforgerydata` sets a readable cookie, and every
 * mutating API request must echo it in `X-XSRF-TOKEN`. A cross-site page can send the cookie but cannot read it.
 */
export async function registerAntiforgery(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request) => {
    if (!isApiRoute(request)) return;
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    const cookie = request.cookies[XSRF_COOKIE];
    const header = request.headers[XSRF_HEADER];
    if (!cookie || typeof header !== 'string' || header !== cookie) throw forbidden('Ogiltig förfrågan (anti-forgery)');
  });

  typed(app).get('/api/getantiforgerydata', { config: { anonymousVisitor: true }, schema: { response: answers(Type.Null()) } }, async (request, reply) => {
    const token = request.cookies[XSRF_COOKIE] ?? randomToken(24);
    reply.setCookie(XSRF_COOKIE, token, { path: '/', sameSite: 'strict', secure: app.deps.config.secureCookies });
    return { data: null };
  });
}
