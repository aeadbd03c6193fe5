import { describe, expect, it } from 'vitest';
import { ChatSignalTypes } from '@videomote/contract/chat';
import { useTestApp } from '../testing/use-test-app.ts';
import { insertMeeting } from '../testing/fixtures.ts';
import { SESSION_COOKIE } from '../platform/session.ts';
import { ChatTestClient } from '../modules/chat/chat-test-client.ts';
import { CHAT_TEXTS } from '../modules/chat/chat-frames.ts';
import { newSignupCode } from '../modules/meetings/signup-code.ts';
import { tokenFor } from '../testing/media-call.ts';
import type { Persona } from '../modules/identity/personas.ts';

/**
 * A sign-up link can travel further than the admin meant, so what it gives must stay small: whoever registers by it
 * presents (webcast) or takes part (meeting), shares a screen and takes a share over after the confirmation like any
 * participant (conference spec §6; forceUnpublish stops a screen share and nothing else), but gets none of the
 * moderation powers — no mute or removal of others (forceDisconnect, the kick and forcemute routes), no chat moderation.
 * People register the real way (before the start, with the admin's code); then the clock moves into the meeting.
 * No Janus here (JANUS_URL points at a closed port): tokens and capabilities are issued, rooms are not created.
 */
const t = useTestApp('2026-11-20T09:00:00+01:00', { env: { JANUS_URL: 'ws://127.0.0.1:9' }, listen: true });

const CODE = newSignupCode();
const seed = (type: 0 | 1) =>
  insertMeeting(t.db, t.app.deps.pins, {
    type,
    start: '2026-11-20T10:00:00+01:00',
    end: '2026-11-20T11:00:00+01:00',
    signupCode: CODE,
    participants: [{ persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true }],
  });

async function chatOf(meetingId: string, who: Persona['key']): Promise<ChatTestClient> {
  const cookie = `${SESSION_COOKIE}=${(await t.as(who)).cookies[SESSION_COOKIE]}`;
  return ChatTestClient.connect(`ws://${t.host}/chat/${meetingId}`, cookie);
}

describe('self-registered people get no moderation powers', () => {
  for (const [type, who, role] of [
    [1, 'jonna', 'PresenterExternal'],
    [0, 'karin', 'ExternalParticipant'],
  ] as const) {
    it(`a self-registered ${role} in a ${type === 1 ? 'webcast' : 'meeting'}: publishes and may take a share over, but mutes, removes and moderates nothing`, async () => {
      const m = await seed(type);
      const registered = await (await t.as(who)).post('/api/meeting/addexternaluser', { meetingId: m.id, signedForm: true, code: CODE });
      expect(registered.statusCode, registered.body).toBe(200);
      t.clock.set('2026-11-20T10:05:00+01:00'); // the meeting is on; fresh logins, as the morning's sessions have expired
      const [self, admin] = [await t.as(who), await t.as('erik')];
      const token = await tokenFor(self, m.id, 'x');
      expect(token.statusCode, token.body).toBe(200);
      expect(token.json().data.capabilities).toEqual({ publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: false, screenShare: true });
      const listed = token.json().data.meeting.participants.find((p: { currentUser: boolean }) => p.currentUser);
      expect(listed).toMatchObject({ role, moderator: false });
      // The admin of the same meeting does get them: the rule is about how one came in, not about the meeting.
      const adminToken = (await tokenFor(admin, m.id, 'x')).json().data;
      expect(adminToken.capabilities).toEqual({ publish: true, subscribe: true, forceUnpublish: true, forceDisconnect: true, screenShare: true });

      // The moderation routes refuse before looking for the connection (the admin gets past the rule: 404). A share
      // takeover is every sharer's: past the rule too, and then no such connection.
      expect((await self.post(`/api/media/${m.id}/forceunpublish`, { connectionId: 'any-connection' })).statusCode).toBe(404);
      for (const action of ['forcemute', 'kick']) {
        const res = await self.post(`/api/media/${m.id}/${action}`, { connectionId: 'any-connection' });
        expect(res.statusCode, `${action}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ name: 'Forbidden', statusCode: 403 });
        expect((await admin.post(`/api/media/${m.id}/${action}`, { connectionId: 'any-connection' })).statusCode, action).toBe(404);
      }

      // Chat: no moderator in the welcome, and every moderator action is refused and changes nothing.
      const [moderator, person] = [await chatOf(m.id, 'erik'), await chatOf(m.id, who)];
      try {
        expect(person.welcome!.moderator).toBe(false);
        expect(moderator.welcome!.moderator).toBe(true);
        moderator.chat('Välkomna');
        const message = await person.next(ChatSignalTypes.chatMessage);
        const refusals = () => person.of(ChatSignalTypes.notification).filter((n) => n.severity === 'ERROR' && n.message === CHAT_TEXTS.forbidden).length;
        person.remove(message.data.id);
        person.command('COMMAND:CHAT_CLOSE');
        person.toggleIgnore(moderator.welcome!.connectionId, true);
        await expect.poll(refusals, { timeout: 5000 }).toBe(3);
        // Nothing happened: the chat is open, the message stands, and the moderator still posts.
        moderator.chat('Fortfarande öppet');
        await person.next(ChatSignalTypes.chatMessage, (x) => x.message === 'Fortfarande öppet');
        expect(moderator.of(ChatSignalTypes.removeChat)).toEqual([]);
        expect(moderator.of(ChatSignalTypes.status)).toEqual([]);
        expect(moderator.of(ChatSignalTypes.toggleIgnoreChat)).toEqual([]);
      } finally {
        await Promise.all([moderator.close(), person.close()]);
      }
    });
  }
});
