import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { GetTokenData, GetTokenRequest, MEDIA_SOCKETS_FULL_CLOSE_CODE, MeetingByRoomId, ModerationRequest } from '@videomote/contract/media';
import { Envelope } from '@videomote/contract/envelope';
import { ConnectionCheckParams, ConnectionCheckReport, ConnectionCheckStart, ParticipantConnectionCheck } from '@videomote/contract/connection-check';
import { requirePerson, requireUser } from '../../platform/auth.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { isOwnOrigin } from '../../platform/origin.ts';
import { answers, typed } from '../../platform/typed-routes.ts';
import { findMeetingByRoomId, meetingHeadingJson, membershipOf } from '../meetings/meeting-membership.ts';
import { MediaService, type MediaAdmission } from './media.service.ts';
import { MAX_QUEUED } from './janus/janus-relay.ts';
import { E2EE_REQUIRED_MESSAGE, mayLowerProtection } from './media-protection.ts';
import { holderOf } from '../../platform/media-holds.ts';
import { sha256 } from '../../platform/crypto.ts';
import { MediaSocketHolds } from './media-socket-holds.ts';
import { roomsPerInstance } from './media.repository.ts';
import { connectionChecksOf, reportConnectionCheck, startConnectionCheck } from './connection-check.ts';

const MeetingIdParams = Type.Object({ meetingId: Type.String({ minLength: 1, maxLength: 64 }) });
const RoomIdParams = Type.Object({ roomId: Type.String({ minLength: 1, maxLength: 64 }) });
// The media token from gettoken, and the browser's own key of its connection (see resumeKey below).
// `probe=1`: the lobby's connection check, which only proves that media flows (connection-check.ts).
const RelayQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 8192 })),
  client: Type.Optional(Type.String({ maxLength: 1000 })),
  probe: Type.Optional(Type.String({ maxLength: 10 })),
  // `e2ee=0`: this browser has no encoded transforms, so it cannot encrypt end to end (media-protection.ts).
  e2ee: Type.Optional(Type.String({ maxLength: 10 })),
});

/** Conference media (spec §7): gettoken, getmeetingbyroomid, moderation, and the `/media/{meetingId}` relay. */
async function mediaPlugin(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const media = new MediaService(app.deps, app.log);
  app.addHook('onClose', async () => media.close());
  app.observability?.addReadinessCheck('janus', () => media.pool.reachable());
  app.observability?.addGauge('videomote_media_rooms', 'Janus VideoRooms held for meetings, on every Janus instance', async () => {
    let rooms = 0;
    for (const n of (await roomsPerInstance(app.deps.db)).values()) rooms += n;
    return rooms;
  });
  app.observability?.addGauge('videomote_media_connections', 'Browser connections to /media relayed by this process', () => media.localTotals().connections);
  app.observability?.addGauge('videomote_media_publishers', 'Feeds published (cameras and screen shares) through this process', () => media.localTotals().publishers);
  const admissions = new WeakMap<FastifyRequest, MediaAdmission>();
  const holds = new MediaSocketHolds(app.socketHolds, app.deps.config.mediaHoldCaps.sockets, app.log);
  app.addHook('onClose', async () => holds.close());

  app.post(
    '/api/meeting/gettoken',
    { schema: { body: GetTokenRequest, response: answers(GetTokenData) }, config: { anonymousVisitor: true } },
    async (request) => {
      // A displayName in the body is not used: see MediaService.getToken.
      const { meetingId, consent } = request.body.data;
      return { data: await media.getToken(requireUser(request), meetingId, consent === true) };
    },
  );

  // The lobby's connection check (connection-check.ts): its token and ICE servers, its outcome, and the outcomes
  // for the meeting's staff.
  app.post(
    '/api/meeting/:id/connectioncheck',
    { schema: { params: ConnectionCheckParams, body: Envelope(Type.Object({}, { additionalProperties: false })), response: answers(ConnectionCheckStart) } },
    async (request) => ({ data: await startConnectionCheck(app.deps, requirePerson(request), request.params.id) }),
  );
  app.post(
    '/api/meeting/:id/connectioncheck/result',
    { schema: { params: ConnectionCheckParams, body: Envelope(ConnectionCheckReport), response: answers(Type.Null()) } },
    async (request) => {
      await reportConnectionCheck(app.deps, requirePerson(request), request.params.id, request.body.data.result);
      return { data: null };
    },
  );
  app.get(
    '/api/meeting/:id/connectionchecks',
    { schema: { params: ConnectionCheckParams, response: answers(Type.Array(ParticipantConnectionCheck)) } },
    async (request) => ({ data: await connectionChecksOf(app.deps, requirePerson(request), request.params.id) }),
  );

  // A webcast's public facts are open to anyone holding its link (public access); other meetings only to members.
  app.get(
    '/api/meeting/getmeetingbyroomid/:roomId',
    { schema: { params: RoomIdParams, response: answers(MeetingByRoomId) }, config: { anonymousVisitor: true } },
    async (request) => {
      const { roomId } = request.params;
      const meeting = await findMeetingByRoomId(app.deps.db, roomId);
      if (!meeting) throw notFound('Mötet hittades inte');
      if (meeting.type !== 1) {
        const member = request.session ? await membershipOf(app.deps.db, meeting.id, request.session.user) : null;
        if (!member) throw notFound('Mötet hittades inte');
      }
      return { data: { ...meetingHeadingJson(meeting), roomId: meeting.roomId } };
    },
  );

  app.post('/api/media/:meetingId/forceunpublish', { schema: { params: MeetingIdParams, body: ModerationRequest, response: answers(Type.Null()) } }, async (request) => {
    await media.forceUnpublish(requirePerson(request), request.params.meetingId, request.body.data.connectionId);
    return { data: null };
  });

  app.post('/api/media/:meetingId/forcemute', { schema: { params: MeetingIdParams, body: ModerationRequest, response: answers(Type.Null()) } }, async (request) => {
    await media.forceMute(requirePerson(request), request.params.meetingId, request.body.data.connectionId);
    return { data: null };
  });

  app.post('/api/media/:meetingId/kick', { schema: { params: MeetingIdParams, body: ModerationRequest, response: answers(Type.Null()) } }, async (request) => {
    await media.kick(requirePerson(request), request.params.meetingId, request.body.data.connectionId);
    return { data: null };
  });

  app.get(
    '/media/:meetingId',
    {
      websocket: true,
      // A page (re)connects a few times a minute at most; far more is a script opening sockets to tie up Janus.
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: { params: MeetingIdParams, querystring: RelayQuery },
      // Refused before the upgrade: a stranger gets an HTTP 403/404, never a socket (a full holder: see below).
      preValidation: async (request) => {
        // SECURITY: a browser sends the session cookie with a cross-site WebSocket handshake too; only our own pages
        // may open the relay (as for /chat). Non-browser clients send no Origin and are judged by session and token.
        if (!isOwnOrigin(request, app.deps.config.publicUrl)) throw forbidden();
        const admission = await media.admitSocket(request.session, request.params.meetingId, request.query.token, request.query.probe === '1');
        // SECURITY: only a booked participant's browser may put the meeting into transit-only protection (e2ee=0).
        if (request.query.e2ee === '0' && request.query.probe !== '1' && !mayLowerProtection(admission.membership, admission.user)) throw forbidden(E2EE_REQUIRED_MESSAGE);
        // SECURITY: sockets per person (across meetings), per session and per client address, on every node.
        const holder = holderOf(admission.user, sha256(admission.sessionToken), request.ip);
        admission.holder = holder;
        // A full holder is still let through the upgrade, only to be closed with a code of its own below: a browser
        // cannot read a refused handshake's status, and the page says why it cannot connect (no hold, no upstream).
        admission.holdId = (await holds.take(holder)) ?? undefined;
        admissions.set(request, admission);
      },
    },
    (socket, request) => {
      const admission = admissions.get(request)!;
      if (!admission.holdId) return socket.close(MEDIA_SOCKETS_FULL_CLOSE_CODE, 'too many media sockets');
      holds.attach(admission.holdId, socket);
      // janus.js speaks as soon as the socket opens; hold its first messages until the relay is wired (a bounded few).
      const early: string[] = [];
      const collect = (raw: unknown) => {
        if (early.length >= MAX_QUEUED) return socket.close(1008, 'too many messages before the media server answered');
        early.push(String(raw));
      };
      socket.on('message', collect);
      const takeEarly = () => {
        socket.off('message', collect);
        return early;
      };
      if (request.query.probe === '1') {
        media.connectCheck(socket, admission, takeEarly).catch((err) => {
          request.log.warn({ err }, 'connection check failed');
          socket.close(4003, 'media server unavailable');
        });
        return;
      }
      // The browser's own key for this connection: with it, a new socket after a broken one resumes the connection.
      const { client } = request.query;
      const resumeKey = client && /^[A-Za-z0-9_-]{16,64}$/.test(client) ? client : null;
      media.connect(socket, admission, takeEarly, resumeKey, request.query.e2ee !== '0').catch((err) => {
        request.log.warn({ err }, 'media connection failed');
        media.recordConnectFailure(admission.membership.meeting.id, err);
        socket.close(4003, 'media server unavailable');
      });
    },
  );

  // Removed from the booking, or the meeting deleted: this process's media connections of such people close, and
  // the meeting's media key is replaced if one of them had been handed it. The process that replaced it tells
  // every process (itself included), and each hands the new key to its connections of those left.
  app.deps.events.on(async (event) => {
    const { meetingId } = event;
    try {
      if (event.type === 'mediaKeyRotated') {
        await media.pushMediaKey(meetingId);
        return;
      }
      await media.recheckMembership(meetingId);
      if (event.type === 'membershipChanged' && (await media.keys.rotateIfStale(meetingId))) {
        app.log.info({ meetingId }, 'media key replaced after a change of the booking');
        await app.deps.events.emit({ type: 'mediaKeyRotated', meetingId });
      }
    } catch (err) {
      app.log.warn({ err, meetingId }, 'media membership check failed');
    }
  });
  // A hand-out that found the meeting's type changed replaced the key itself: every process pushes it as above.
  media.keys.onRotated = (meetingId) => {
    app.log.info({ meetingId }, 'media key replaced after a change of the meeting type');
    app.deps.events.emit({ type: 'mediaKeyRotated', meetingId }).catch((err: unknown) => app.log.warn({ err, meetingId }, 'media key rotation not announced'));
  };
  app.decorate('media', media);
}

/** Not encapsulated, so `app.media` (tests, moderation from other modules later) is visible on the root app. */
export const mediaRoutes = fp(mediaPlugin, { name: 'media' });

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}
