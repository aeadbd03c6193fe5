import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { CountInfoParticipantsRequest, MeetingRequest, RenewSignupCodeRequest } from '@videomote/contract/meetings';
import { Envelope } from '@videomote/contract/envelope';
import { requirePerson } from '../../platform/auth.ts';
import { validationError } from '../../platform/errors.ts';
import { MeetingsService } from './meetings.service.ts';
import { calendarFor, invitationsFor } from './invitations.ts';
import { countMeetingsInProgress } from './meetings.repository.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const RangeQuery = Type.Object({ from: Type.Optional(Type.String({ maxLength: 40 })), to: Type.Optional(Type.String({ maxLength: 40 })) });

type Range = { Querystring: { from?: string; to?: string } };
type ById = { Params: { id: string } };

/** The meeting calls of booking spec §7, plus invitations and the calendar file. Thin: rules live in the service. */
export async function meetingsRoutes(app: FastifyInstance): Promise<void> {
  const service = new MeetingsService({ db: app.deps.db, pins: app.deps.pins, directory: app.deps.directory, now: app.deps.now, events: app.deps.events });
  app.observability?.addGauge('videomote_meetings_active', 'Meetings going on now (start passed, end not), in the whole database', () =>
    countMeetingsInProgress(app.deps.db, app.deps.now()),
  );

  // The lists arrive as JSON text from the database (meetingListJson) and go out as they are, in the { data } envelope.
  for (const fallback of ['day', 'week'] as const) {
    app.get<Range>(`/api/meeting/${fallback}`, { schema: { querystring: RangeQuery } }, async (request, reply) => {
      const list = await service.listRange(requirePerson(request), request.query.from, request.query.to, fallback);
      return reply.type('application/json; charset=utf-8').send(`{"data":${list}}`);
    });
  }

  app.get('/api/meetingweek', async (request) => ({ data: await service.weeks(requirePerson(request)) }));

  app.post<{ Body: { data: MeetingRequest } }>('/api/meeting', { schema: { body: Envelope(MeetingRequest) } }, async (request) => ({
    data: await service.create(requirePerson(request), request.body.data),
  }));

  app.put<{ Body: { data: MeetingRequest } }>('/api/meeting', { schema: { body: Envelope(MeetingRequest) } }, async (request) => ({
    data: await service.update(requirePerson(request), request.body.data),
  }));

  app.put<{ Params: { id: string; count: string }; Body: { data: CountInfoParticipantsRequest } }>(
    '/api/meeting/:id/:count',
    { schema: { params: Type.Object({ id: Type.String({ maxLength: 64 }), count: Type.String({ maxLength: 10 }) }), body: Envelope(CountInfoParticipantsRequest) } },
    async (request) => {
      const user = requirePerson(request);
      const { data } = request.body;
      if (String(data.countInfoParticipants) !== request.params.count || (data.id && data.id !== request.params.id)) {
        throw validationError([{ fields: ['countInfoParticipants'], message: 'Fältet är ej korrekt ifyllt' }]);
      }
      return { data: await service.setCountInfoParticipants(user, request.params.id, data.countInfoParticipants) };
    },
  );

  app.get<ById>('/api/meeting/copy/:id', { schema: { params: IdParams } }, async (request) => ({
    data: await service.copyTemplate(requirePerson(request), request.params.id),
  }));

  app.get<ById>('/api/meeting/:id', { schema: { params: IdParams } }, async (request) => ({
    data: await service.get(requirePerson(request), request.params.id),
  }));

  app.delete<ById>('/api/meeting/:id', { schema: { params: IdParams } }, async (request) => {
    await service.remove(requirePerson(request), request.params.id);
    return { data: { id: request.params.id } };
  });

  app.get<ById>('/api/meeting/:id/invitations', { schema: { params: IdParams } }, async (request) => {
    const { meeting, signupCode } = await service.withSignupCode(requirePerson(request), request.params.id);
    if (!meeting.currentUserIsAdmin) return { data: { links: [], invitations: [] } };
    return { data: invitationsFor(meeting, app.deps.config.publicUrl, signupCode, app.deps.config.webLanguages) };
  });

  // A new sign-up code: the links with the old one stop working. Answers the links and invitations anew.
  app.post<ById>('/api/meeting/:id/signupcode', { schema: { params: IdParams, body: Envelope(RenewSignupCodeRequest) } }, async (request) => {
    const { meeting, signupCode } = await service.renewSignupCode(requirePerson(request), request.params.id);
    return { data: invitationsFor(meeting, app.deps.config.publicUrl, signupCode, app.deps.config.webLanguages) };
  });

  app.get<ById>('/api/meeting/:id/calendar.ics', { schema: { params: IdParams } }, async (request, reply) => {
    const meeting = await service.get(requirePerson(request), request.params.id);
    reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="videomote-${meeting.id}.ics"`)
      .header('cache-control', 'private, no-store');
    return calendarFor(meeting, app.deps.config.publicUrl, app.deps.now());
  });
}
