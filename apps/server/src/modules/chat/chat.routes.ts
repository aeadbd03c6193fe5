import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { forbidden, unauthorized } from '../../platform/errors.ts';
import { sha256 } from '../../platform/crypto.ts';
import { isOwnOrigin } from '../../platform/origin.ts';
import { typed } from '../../platform/typed-routes.ts';
import { findMeeting, membershipOf } from '../meetings/meeting-membership.ts';
import { ChatHub, type ChatMember } from './chat.service.ts';
import { MemoryChatStore, type ChatStore } from './chat-store.ts';
import { RedisChatStore } from './redis-chat-store.ts';
import { assuranceOf } from './raised-hands.ts';
import { meetingErrorRecorder } from '../admin/meeting-errors.ts';

const members = new WeakMap<FastifyRequest, ChatMember>();

/** `WSS /chat/{meetingId}` (conference spec §7): the session cookie is checked before the upgrade. */
async function chatPlugin(app: FastifyInstance): Promise<void> {
  const { config, db, sessions, now } = app.deps;
  // Signals through Redis carry the cluster bus's signature: only our nodes can say anything in a meeting's chat.
  const store: ChatStore = config.redisUrl ? new RedisChatStore(config.redisUrl, undefined, app.deps.bus, now) : new MemoryChatStore();
  const recordError = meetingErrorRecorder(db, now, app.log);
  const hub = new ChatHub(store, {
    now,
    log: app.log,
    recordError: (meetingId, code, message) => recordError(meetingId, 'chat', code, message),
    isMeetingOver: async (meetingId) => {
      const meeting = await findMeeting(db, meetingId);
      return !meeting || meeting.endTime.getTime() <= now().getTime();
    },
    sessions,
    stillMember: async (member) => {
      if (!(await findMeeting(db, member.meetingId))) return 'deleted';
      const session = await sessions.find(member.sessionToken);
      // An ended session is the session check's to close (with its own code).
      if (!session) return 'ok';
      const membership = await membershipOf(db, member.meetingId, session.user);
      if (!membership) return 'removed';
      if (member.participantId !== (membership.kind === 'participant' ? membership.participant.id : null)) return 'removed';
      // Made or unmade a moderator, or given another role (a text interpreter who captions, or no longer): the
      // rights are fixed per socket, so this one reconnects to get the new ones.
      if (membership.kind === 'participant' && membership.participant.isAdmin !== member.moderator) return 'rightsChanged';
      if (membership.kind === 'participant' && membership.participant.role !== member.role) return 'rightsChanged';
      return 'ok';
    },
  });
  app.addHook('onClose', async () => hub.close());
  // Two tabs of one person are two sockets but one participant: metrics show both figures (this process's).
  if (config.redisUrl) app.observability?.addReadinessCheck('redis', () => store.ping());
  app.observability?.addGauge('videomote_chat_sockets', 'Open chat sockets in this process', () => hub.localTotals().sockets);
  app.observability?.addGauge('videomote_chat_participants', 'Distinct people connected to chat in this process (one per person, however many tabs)', () => hub.localTotals().people);
  // When the retention job deletes a meeting, whatever is left of its chat goes with it. Anyone still connected to
  // it (a tab left open overnight) is closed: the retention plugin announces the deletion as a meeting event.
  app.retention?.afterMeetingsPurged.push((meetingIds) => Promise.all(meetingIds.map((id) => hub.purge(id))).then(() => undefined));
  // A participant removed from the booking, or the meeting deleted (on any process): their sockets here close.
  app.deps.events.on((event) => (event.type === 'mediaKeyRotated' ? undefined : hub.membershipChanged(event.meetingId)));

  typed(app).get(
    '/chat/:meetingId',
    {
      websocket: true,
      // Reconnecting every 5 s is 12 upgrades a minute; far more is a script, not a browser.
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { params: Type.Object({ meetingId: Type.String({ maxLength: 100 }) }) },
      preValidation: async (request) => {
        // SECURITY: only our own pages may open the chat (see isOwnOrigin).
        const session = request.session;
        const membership = session ? await membershipOf(db, request.params.meetingId, session.user) : null;
        if (!isOwnOrigin(request, config.publicUrl)) {
          // Felsökning records refusals of the meeting's own people only (here: a foreign page using a member's
          // cookie). Strangers' refused upgrades are not recorded: anyone could fill the log with them.
          if (membership) recordError(request.params.meetingId, 'chat', 'socket-refused', 'Anslutning till chatten nekades: fel ursprung (Origin)');
          throw forbidden();
        }
        if (!session) throw unauthorized();
        if (!membership) throw forbidden();
        const { user } = session;
        members.set(
          request,
          membership.kind === 'participant'
            ? {
                meetingId: membership.meeting.id,
                meetingType: membership.meeting.type,
                participantId: membership.participant.id,
                displayName: membership.participant.displayName,
                moderator: membership.participant.isAdmin,
                assurance: assuranceOf(user, membership),
                role: membership.participant.role,
                key: `p:${membership.participant.id}`,
                sessionToken: session.token,
              }
            : {
                meetingId: membership.meeting.id,
                meetingType: membership.meeting.type,
                participantId: null,
                displayName: `${user.firstName} ${user.lastName}`.trim(),
                moderator: false,
                assurance: assuranceOf(user, membership),
                role: null,
                key: `v:${sha256(session.token).slice(0, 32)}`,
                sessionToken: session.token,
              },
        );
      },
    },
    (socket, request) => {
      const member = members.get(request);
      if (!member) return void socket.close(1008);
      hub.attach(socket, member);
    },
  );
  app.decorate('chat', hub);
}

/** Not encapsulated, so `app.chat` (Felsökning's probes, the retention job, tests) is on the root app, as `app.media` is. */
export const chatRoutes = fp(chatPlugin, { name: 'chat' });

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatHub;
  }
}
