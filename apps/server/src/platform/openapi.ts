import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';

/**
 * Paths the document describes: the JSON API. The test IdP's own routes (oidc-provider's catch-alls use methods
 * OpenAPI does not know), the web app, its config file and the /chat and /media sockets are not part of it.
 */
export const isDocumentedPath = (url: string) => url.startsWith('/api/');

/**
 * The OpenAPI document of the whole API, generated from the same TypeBox schemas the routes validate with,
 * served at `/api/docs` (JSON) on the internal listener: the full map of the API is for our operators, not for
 * every visitor. Must be registered before the routes it describes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Videomöte API', version: app.deps.config.releaseVersion, description: 'Every body in and out is wrapped in { data }. Mutating calls need the X-XSRF-TOKEN header.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'vm_session' } } },
      security: [{ session: [] }],
    },
    hideUntagged: false,
    transform: ({ schema, url }) => ({ schema: isDocumentedPath(url) ? schema : { ...schema, hide: true }, url }),
  });
  app.internal.get('/api/docs', async () => app.swagger());
}
