import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import {
  CountInfoParticipants,
  CountInfoParticipantsRequest,
  Meeting,
  MeetingInvitations,
  MeetingRequest,
  MeetingWeek,
  RenewSignupCodeRequest,
} from '@videomote/contract/meetings';
import { Envelope, IdReference } from '@videomote/contract/envelope';
import { requirePerson } from '../../platform/auth.ts';
import { validationError } from '../../platform/errors.ts';
import { answers, file, typed } from '../../platform/typed-routes.ts';
import { MeetingsService } from './meetings.service.ts';
import { calendarFor, invitationsFor } from './invitations.ts';
import { countMeetingsInProgress } from './meetings.repository.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const RangeQuery = Type.Object({ from: Type.Optional(Type.String({ maxLength: 40 })), to: Type.Optional(Type.String({ maxLength: 40 })) });

/** The meeting calls of booking spec §7, plus invitations and the calendar file. Thin: rules live in the service. */
export async function meetingsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const service = new MeetingsService({ db: app.deps.db, pins: app.deps.pins, directory: app.deps.directory, now: app.deps.now, events: app.deps.events });
  app.observability?.addGauge('videomote_meetings_active', 'Meetings going on now (start passed, end not), in the whole database', () =>
    countMeetingsInProgress(app.deps.db, app.deps.now()),
  );

  // The lists arrive as JSON text from the database (meetingListJson) and go out as they are, in the { data } envelope.
  // A string skips the serialiser, so these two are declared on the untyped instance: their response schema
  // documents the shape, and meetingListJson's query must keep to it (the meetings API tests read every field).
  for (const fallback of ['day', 'week'] as const) {
    fastify.get<{ Querystring: Static<typeof RangeQuery> }>(
      `/api/meeting/${fallback}`,
      { schema: { querystring: RangeQuery, response: answers(Type.Array(Meeting)) } },
      async (request, reply) => {
        const list = await service.listRange(requirePerson(request), request.query.from, request.query.to, fallback);
        return reply.type('application/json; charset=utf-8').send(`{"data":${list}}`);
      },
    );
  }

  app.get('/api/meetingweek', { schema: { response: answers(Type.Array(MeetingWeek)) } }, async (request) => ({ data: await service.weeks(requirePerson(request)) }));

  app.post('/api/meeting', { schema: { body: Envelope(MeetingRequest), response: answers(Meeting) } }, async (request) => ({
    data: await service.create(requirePerson(request), request.body.data),
  }));

  app.put('/api/meeting', { schema: { body: Envelope(MeetingRequest), response: answers(Meeting) } }, async (request) => ({
    data: await service.update(requirePerson(request), request.body.data),
  }));

  app.put(
    '/api/meeting/:id/:count',
    { schema: { params: Type.Object({ id: Type.String({ maxLength: 64 }), count: Type.String({ maxLength: 10 }) }), body: Envelope(CountInfoParticipantsRequest), response: answers(CountInfoParticipants) } },
    async (request) => {
      const user = requirePerson(request);
      const { data } = request.body;
      if (String(data.countInfoParticipants) !== request.params.count || (data.id && data.id !== request.params.id)) {
        throw validationError([{ fields: ['countInfoParticipants'], message: 'Fältet är ej korrekt ifyllt' }]);
      }
      return { data: await service.setCountInfoParticipants(user, request.params.id, data.countInfoParticipants) };
    },
  );

  app.get('/api/meeting/copy/:id', { schema: { params: IdParams, response: answers(Meeting) } }, async (request) => ({
    data: await service.copyTemplate(requirePerson(request), request.params.id),
  }));

  app.get('/api/meeting/:id', { schema: { params: IdParams, response: answers(Meeting) } }, async (request) => ({
    data: await service.get(requirePerson(request), request.params.id),
  }));

  app.delete('/api/meeting/:id', { schema: { params: IdParams, response: answers(IdReference) } }, async (request) => {
    await service.remove(requirePerson(request), request.params.id);
    return { data: { id: request.params.id } };
  });

  app.get('/api/meeting/:id/invitations', { schema: { params: IdParams, response: answers(MeetingInvitations) } }, async (request) => {
    const { meeting, signupCode } = await service.withSignupCode(requirePerson(request), request.params.id);
    if (!meeting.currentUserIsAdmin) return { data: { links: [], invitations: [] } };
    return { data: invitationsFor(meeting, app.deps.config.publicUrl, signupCode, app.deps.config.webLanguages) };
  });

  // A new sign-up code: the links with the old one stop working. Answers the links and invitations anew.
  app.post('/api/meeting/:id/signupcode', { schema: { params: IdParams, body: Envelope(RenewSignupCodeRequest), response: answers(MeetingInvitations) } }, async (request) => {
    const { meeting, signupCode } = await service.renewSignupCode(requirePerson(request), request.params.id);
    return { data: invitationsFor(meeting, app.deps.config.publicUrl, signupCode, app.deps.config.webLanguages) };
  });

  app.get('/api/meeting/:id/calendar.ics', { schema: { params: IdParams, response: file('text/calendar', 'The meeting as an iCalendar file') } }, async (request, reply) => {
    const meeting = await service.get(requirePerson(request), request.params.id);
    reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="videomote-${meeting.id}.ics"`)
      .header('cache-control', 'private, no-store');
    return calendarFor(meeting, app.deps.config.publicUrl, app.deps.now());
  });
}
