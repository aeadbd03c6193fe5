import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Employee } from '@videomote/contract/meetings';
import { requireFeature } from '../../platform/auth.ts';
import { answers, typed } from '../../platform/typed-routes.ts';
import type { EmployeeDirectory } from './employee-directory.ts';

/**
 * `GET /api/employee/{query}` (booking spec §7): staff lookup for the booking form's employee search. When the
 * agency's directory cannot be reached the answer is a 503 with a Swedish message, which the form shows in place.
 */
export async function directoryRoutes(app: FastifyInstance, options: { directory?: EmployeeDirectory } = {}): Promise<void> {
  const directory = options.directory ?? app.deps.directory;
  typed(app).get(
    '/api/employee/:query',
    {
      schema: {
        params: Type.Object({ query: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: answers(Type.Array(Employee)),
      },
    },
    async (request, reply) => {
      // SECURITY: the directory lists agency staff's names, ids and addresses. Only those who may put a colleague on
      // a meeting (InternalMeeting: the staff roles' feature, spec §4 "used to add agency staff") may search it;
      // contractors (KA, MSFA) book too (EditMeeting) but never add staff. Budget: rate-limits.ts (per person).
      requireFeature(request, 'InternalMeeting');
      const q = request.params.query.trim();
      const data: Employee[] = q.length < 3 ? [] : await directory.search(q);
      // The web caches per query (spec §7); a short private cache lets the browser do the same.
      reply.header('cache-control', 'private, max-age=60');
      return { data };
    },
  );
}
