import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { SystemMessageInput } from '@videomote/contract/messages';
import { Envelope } from '@videomote/contract/envelope';
import { requireAdmin } from '../../platform/auth.ts';
import { isFlagEnabled } from '../admin/feature-flags.ts';
import * as service from './messages.service.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Body = Envelope(SystemMessageInput);
type BodyT = { data: SystemMessageInput };

/** System messages (booking spec §7): a public list by audience, and admin CRUD. */
export async function messagesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;

  // Public: shown on every page, also before login and to anonymous webcast visitors. The banner polls it, so it
  // must not count as activity that keeps a session alive.
  app.get('/api/message', { config: { anonymousVisitor: true, skipSessionTouch: true } }, async (request) => {
    if (!(await isFlagEnabled(db, 'systemMessages'))) return { data: [] };
    return { data: await service.activeMessages(db, app.deps.now(), request.session?.user ?? null) };
  });

  app.get('/api/message/all', async (request) => {
    requireAdmin(request);
    return { data: await service.allMessages(db) };
  });

  app.get<{ Params: { id: string } }>('/api/message/:id', { schema: { params: IdParams } }, async (request) => {
    requireAdmin(request);
    return { data: await service.getMessage(db, request.params.id) };
  });

  app.post<{ Body: BodyT }>('/api/message', { schema: { body: Body } }, async (request) => {
    requireAdmin(request);
    return { data: await service.createMessage(db, request.body.data) };
  });

  // The spec's PUT carries the id in the body; the path form is accepted too and must agree with it.
  app.put<{ Body: BodyT }>('/api/message', { schema: { body: Body } }, async (request) => {
    requireAdmin(request);
    return { data: await service.updateMessage(db, request.body.data.id, request.body.data) };
  });

  app.put<{ Params: { id: string }; Body: BodyT }>('/api/message/:id', { schema: { params: IdParams, body: Body } }, async (request) => {
    requireAdmin(request);
    const bodyId = request.body.data.id;
    const id = bodyId && bodyId !== request.params.id ? null : request.params.id;
    return { data: await service.updateMessage(db, id, request.body.data) };
  });

  app.delete<{ Params: { id: string } }>('/api/message/:id', { schema: { params: IdParams } }, async (request) => {
    requireAdmin(request);
    return { data: await service.deleteMessage(db, request.params.id) };
  });
}
