import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AccessibilityReport, AccessibilityReportReceipt, AccessibilityReportRequest } from '@videomote/contract/feedback';
import { Envelope } from '@videomote/contract/envelope';
import { requireAdmin } from '../../platform/auth.ts';
import { answers, created, typed } from '../../platform/typed-routes.ts';
import { FeedbackRepository } from './feedback.repository.ts';
import { FeedbackService } from './feedback.service.ts';

export async function feedbackRoutes(app: FastifyInstance): Promise<void> {
  const service = new FeedbackService(new FeedbackRepository(app.deps.db), app.deps.now);

  typed(app).post(
    '/api/feedback/accessibility',
    { config: { anonymousVisitor: true }, schema: { body: Envelope(AccessibilityReportRequest), response: created(AccessibilityReportReceipt) } },
    async (request, reply) => {
      const report = await service.report(request.body.data, request.session?.user ?? null);
      return reply.status(201).send({ data: { id: report.id, createdAt: report.createdAt } });
    },
  );

  typed(app).get('/api/feedback/accessibility', { schema: { response: answers(Type.Array(AccessibilityReport)) } }, async (request) => {
    requireAdmin(request);
    return { data: await service.list() };
  });
}
