import type { FastifyInstance } from 'fastify';
import { Envelope, IdReference } from '@videomote/contract/envelope';
import { MeetingPollInput } from '@videomote/contract/polls';
import { requireUser } from '../../platform/auth.ts';
import { answers, typed } from '../../platform/typed-routes.ts';
import { submitPoll } from './polls.service.ts';

export async function pollsRoutes(app: FastifyInstance): Promise<void> {
  // Anonymous webcast visitors rate the webcast they watched; membershipOf() scopes them to it.
  typed(app).post(
    '/api/meetingpoll',
    { schema: { body: Envelope(MeetingPollInput), response: answers(IdReference) }, config: { anonymousVisitor: true } },
    async (request) => ({ data: await submitPoll(app.deps.db, app.deps.now(), requireUser(request), request.body.data) }),
  );
}
