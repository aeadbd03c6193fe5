import type { FastifyInstance } from 'fastify';
import type { ClientConfig } from '@videomote/contract/identity';

/** `/assets/config/config.json`: the base URLs the web builds links from (booking spec §7). No secrets here. */
export async function registerClientConfig(app: FastifyInstance): Promise<void> {
  app.get('/assets/config/config.json', async (_request, reply) => {
    const { config } = app.deps;
    const base = config.publicUrl;
    const wsBase = base.replace(/^http/, 'ws');
    const body: ClientConfig = {
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
    reply.header('cache-control', 'no-cache');
    return body;
  });
}
