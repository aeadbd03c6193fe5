import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope } from '@videomote/contract/envelope';
import { LobbyMeeting, LobbyParams } from '@videomote/contract/lobby';
import { AddExternalUserBody, SignupInfo, SignupInfoQuery, SignupMeeting, SignupType } from '@videomote/contract/signup';
import {
  AUTHENTICATION_VARIANT_COOKIE,
  MeetingIdByRoom,
  PublicAccessBody,
  PublicAccessSession,
  RoomParams,
} from '@videomote/contract/public-access';
import { requirePerson, setSessionCookie } from '../../platform/auth.ts';
import { answers, typed } from '../../platform/typed-routes.ts';
import { giveConsent, lobbyMeeting, withdrawConsent } from './lobby.service.ts';
import { addExternalUser, signupInfo, signupType } from './signup.service.ts';
import { openWebcastByRoom, visitorFor } from './public-access.service.ts';

/**
 * How people get into a meeting: the lobby's meeting lookup, presenter self-registration and anonymous entry to
 * webcasts. Paths follow booking spec §7; `GET /api/lobby/{id}` and `POST /api/publicaccess/{roomId}` are ours.
 */
export async function lobbyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { db } = app.deps;

  app.get(
    '/api/lobby/:id',
    { schema: { params: LobbyParams, response: answers(LobbyMeeting) } },
    async (request) => ({ data: await lobbyMeeting(db, requirePerson(request), request.params.id) }),
  );

  // The consent box ticked in the lobby: the media token needs it (lobby.service.ts requireConsent).
  app.post(
    '/api/lobby/:id/consent',
    { schema: { params: LobbyParams, body: Envelope(Type.Object({}, { additionalProperties: false })), response: answers(Type.Null()) } },
    async (request) => {
      await giveConsent(db, requirePerson(request), request.params.id, app.deps.now());
      return { data: null };
    },
  );

  // Unticked again: withdrawn.
  app.delete(
    '/api/lobby/:id/consent',
    { schema: { params: LobbyParams, response: answers(Type.Null()) } },
    async (request) => {
      await withdrawConsent(db, requirePerson(request), request.params.id);
      return { data: null };
    },
  );

  app.get(
    '/api/meeting/validateexternaluser/:id',
    { schema: { params: LobbyParams, querystring: SignupInfoQuery, response: answers(SignupInfo) } },
    async (request) => ({ data: await signupInfo(db, requirePerson(request), request.params.id, request.query.code) }),
  );

  // Open to everybody, as the sign-up page is: only the meeting type, to name it in the page's heading (see SignupType).
  app.get(
    '/api/meeting/signuptype/:id',
    { config: { anonymousVisitor: true }, schema: { params: LobbyParams, response: answers(SignupType) } },
    async (request) => ({ data: await signupType(db, request.params.id) }),
  );

  app.post(
    '/api/meeting/addexternaluser',
    { schema: { body: AddExternalUserBody, response: answers(SignupMeeting) } },
    async (request) => ({ data: await addExternalUser(db, requirePerson(request), request.body.data, app.deps.now()) }),
  );

  // Open to everybody: this is how an anonymous visitor's browser learns whether the link works.
  app.get(
    '/api/meeting/getidbyroomid/:roomId',
    { config: { anonymousVisitor: true }, schema: { params: RoomParams, response: answers(MeetingIdByRoom) } },
    async (request) => {
      const meeting = await openWebcastByRoom(db, request.params.roomId, app.deps.now());
      return { data: { meetingId: meeting.id } };
    },
  );

  app.post(
    '/api/publicaccess/:roomId',
    {
      config: { anonymousVisitor: true },
      schema: { params: RoomParams, body: PublicAccessBody, response: answers(PublicAccessSession) },
    },
    async (request, reply) => {
      const meeting = await openWebcastByRoom(db, request.params.roomId, app.deps.now());
      const visitor = visitorFor(meeting.id, request.body.data.displayName);
      // Public access is anonymous by design: whatever session this browser had ends here.
      if (request.session) await app.deps.sessions.destroy(request.session.token);
      const session = await app.deps.sessions.create(visitor);
      setSessionCookie(app, reply, session.token, session.expiresAt);
      reply.setCookie(AUTHENTICATION_VARIANT_COOKIE, 'Webcast', { path: '/', sameSite: 'lax', secure: app.deps.config.secureCookies });
      return { data: { meetingId: meeting.id, displayName: visitor.firstName } };
    },
  );
}

