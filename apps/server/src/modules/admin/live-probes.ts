import type { FastifyInstance } from 'fastify';
import { MISSING_DATA } from '@videomote/contract/admin';
import { chatHubOf } from '../chat/chat.routes.ts';
import { findRoom } from '../media/media.repository.ts';
import type { LiveProbes } from './troubleshoot.ts';

const CAPTIONS_HELD = (n: number) => `${n} ${n === 1 ? 'textningsrad' : 'textningsrader'} från skrivtolken sparade under samtalet`;

/**
 * Where Felsökning asks the chat and media modules who is connected. Each answer is what that module exports;
 * when a module is not running in this server, the page says 'uppgift saknas' rather than guessing.
 */
export function liveProbes(app: FastifyInstance): LiveProbes {
  return {
    async chat(meetingId) {
      let hub;
      try {
        hub = chatHubOf(app);
      } catch {
        return { available: false, reason: MISSING_DATA };
      }
      const [presence, captions] = await Promise.all([hub.presence(meetingId), hub.captions(meetingId)]);
      return {
        available: true,
        // How many caption lines the call holds (never their text): the proof that they go when the call ends.
        ...(captions.length ? { state: CAPTIONS_HELD(captions.length) } : {}),
        connections: presence.map((p) => ({
          displayName: p.displayName,
          participantId: p.participantId,
          // One line per person; two tabs (or a reconnect not yet noticed) show as a count, not as two people.
          detail: [p.moderator ? 'moderator' : null, p.participantId ? null : 'besökare', p.sockets > 1 ? `${p.sockets} anslutningar` : null].filter(Boolean).join(', '),
        })),
      };
    },
    async media(meetingId) {
      const media = (app as Partial<Pick<FastifyInstance, 'media'>>).media;
      if (!media) return { available: false, reason: MISSING_DATA };
      const room = await findRoom(app.deps.db, meetingId);
      // The room's secret stays in the media module: only its number and the Janus instance are shown.
      const state = room ? `Rum ${room.janusRoomId} på ${room.instance}` : 'Inget mediarum har skapats ännu';
      // Live connections are known by the server process that relays them; with several nodes this shows this one.
      const connections = media.connections(meetingId).map((c) => ({
        displayName: c.displayName,
        participantId: c.participantId,
        detail: [c.hasAudio ? 'ljud på' : 'ljud av', c.hasVideo ? 'bild på' : 'bild av', c.moderator ? 'moderator' : null].filter(Boolean).join(', '),
      }));
      return { available: true, state, connections };
    },
  };
}
