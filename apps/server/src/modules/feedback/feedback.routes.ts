import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { AccessibilityReportRequest } from '@videomote/contract/feedback';
import { Envelope } from '@videomote/contract/envelope';
import { requireAdmin } from '../../platform/auth.ts';
import { FeedbackRepository } from './feedback.repository.ts';
import { FeedbackService } from './feedback.service.ts';

export async function feedbackRoutes(app: FastifyInstance): Promise<void> {
  const service = new FeedbackService(new FeedbackRepository(app.deps.db), app.deps.now);

  app.post<{ Body: { data: Static<typeof AccessibilityReportRequest> } }>(
    '/api/feedback/accessibility',
    { config: { anonymousVisitor: true }, schema: { body: Envelope(AccessibilityReportRequest) } },
    async (request, reply) => {
      const report = await service.report(request.body.data, request.session?.user ?? null);
      return reply.status(201).send({ data: { id: report.id, createdAt: report.createdAt } });
    },
  );

  app.get('/api/feedback/accessibility', async (request) => {
    requireAdmin(request);
    return { data: await service.list() };
  });
}
