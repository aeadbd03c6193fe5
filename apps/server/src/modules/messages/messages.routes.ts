import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { SystemMessage, SystemMessageInput } from '@videomote/contract/messages';
import { Envelope, IdReference } from '@videomote/contract/envelope';
import { requireAdmin } from '../../platform/auth.ts';
import { answers, typed } from '../../platform/typed-routes.ts';
import { isFlagEnabled } from '../admin/feature-flags.ts';
import * as service from './messages.service.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Body = Envelope(SystemMessageInput);

/** System messages (booking spec §7): a public list by audience, and admin CRUD. */
export async function messagesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { db } = app.deps;

  // Public: shown on every page, also before login and to anonymous webcast visitors. The banner polls it, so it
  // must not count as activity that keeps a session alive.
  app.get(
    '/api/message',
    { config: { anonymousVisitor: true, skipSessionTouch: true }, schema: { response: answers(Type.Array(SystemMessage)) } },
    async (request) => {
      if (!(await isFlagEnabled(db, 'systemMessages'))) return { data: [] };
      return { data: await service.activeMessages(db, app.deps.now(), request.session?.user ?? null) };
    },
  );

  app.get('/api/message/all', { schema: { response: answers(Type.Array(SystemMessage)) } }, async (request) => {
    requireAdmin(request);
    return { data: await service.allMessages(db) };
  });

  app.get('/api/message/:id', { schema: { params: IdParams, response: answers(SystemMessage) } }, async (request) => {
    requireAdmin(request);
    return { data: await service.getMessage(db, request.params.id) };
  });

  app.post('/api/message', { schema: { body: Body, response: answers(SystemMessage) } }, async (request) => {
    requireAdmin(request);
    return { data: await service.createMessage(db, request.body.data) };
  });

  // The spec's PUT carries the id in the body; the path form is accepted too and must agree with it.
  app.put('/api/message', { schema: { body: Body, response: answers(SystemMessage) } }, async (request) => {
    requireAdmin(request);
    return { data: await service.updateMessage(db, request.body.data.id, request.body.data) };
  });

  app.put('/api/message/:id', { schema: { params: IdParams, body: Body, response: answers(SystemMessage) } }, async (request) => {
    requireAdmin(request);
    const bodyId = request.body.data.id;
    const id = bodyId && bodyId !== request.params.id ? null : request.params.id;
    return { data: await service.updateMessage(db, id, request.body.data) };
  });

  app.delete('/api/message/:id', { schema: { params: IdParams, response: answers(IdReference) } }, async (request) => {
    requireAdmin(request);
    return { data: await service.deleteMessage(db, request.params.id) };
  });
}
