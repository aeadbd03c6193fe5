import type { FastifyInstance } from 'fastify';
import type { ClientConfig } from '@videomote/contract/identity';
import type { Config } from './config.ts';

/** The base URLs and settings the web builds on (booking spec §7). No secrets here. */
export function clientConfigOf(config: Config): ClientConfig {
  const base = config.publicUrl;
  const wsBase = base.replace(/^http/, 'ws');
  return {
    internalBaseUrl: `${base}/meetings`,
    externalBaseUrl: `${base}/meetings`,
    publicInfoBaseUrl: `${base}/publicaccess`,
    roomBaseUrl: `${base}/publicaccess`,
    selfRegistrationBaseUrl: `${base}/meetings`,
    chatBaseUrl: `${wsBase}/chat`,
    mediaBaseUrl: `${wsBase}/media`,
    // Servers that need a password are never listed here: TURN comes with each participant's own credentials.
    iceServers: config.iceServers.filter((s) => !s.credential).map((s) => ({ urls: s.urls })),
    releaseVersion: config.releaseVersion,
    sessionMinutes: config.sessionMinutes,
    environment: config.environment,
    ratingCommentDays: config.ratingCommentDays,
    accessibilityReportDays: config.accessibilityReportDays,
    testIdp: config.testIdp,
    videoLayers: config.videoLayers,
    languages: config.webLanguages,
  };
}

/**
 * The same as a data block in each page's HTML, so that the web starts without waiting for config.json (opening a
 * call directly, the media socket waited for it: a round trip through a busy server). `<` is escaped so that no
 * value can end the block.
 */
export function withClientConfig(html: string, config: ClientConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const page = html.replace('</head>', `    <script type="application/json" id="client-config">${json}</script>\n  </head>`);
  // The test system's strip (the web's TestSystemBanner) has its room from the first paint: the page below it is not
  // pushed down once the app has started (a layout shift of the page's first screen).
  return config.testIdp ? page.replace(/<html( [^>]*)?>/, (tag) => tag.replace('>', ' class="test-system">')) : page;
}

/** `/assets/config/config.json`. */
export async function registerClientConfig(app: FastifyInstance): Promise<void> {
  app.get('/assets/config/config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return clientConfigOf(app.deps.config);
  });
}
