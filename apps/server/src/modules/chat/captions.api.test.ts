import { describe, expect, it } from 'vitest';
import { CAPTION_HISTORY_LIMIT, ChatCloseCodes, ChatSignalTypes } from '@videomote/contract/chat';
import { SESSION_COOKIE } from '../../platform/session.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { chatBarrier as barrier } from './chat-test-client.ts';
import { useChatServer } from './chat-test-server.ts';
import { CHAT_TEXTS } from './chat-frames.ts';

// Captions typed by the booked text interpreter (Skrivtolk), over real WebSocket clients of the chat socket: who
// may send them (the server decides from the booking), what everybody receives, and how long they are kept.

const server = useChatServer();
const { t, join } = server;
const hour = 3600_000;

/** Erik moderates, Jonna takes part, Karin (e-ID) is the booked text interpreter. Type 1 is a webcast. */
const meeting = (type: 0 | 1 = 0) =>
  server.meetingNow(
    [
      { persona: 'erik', role: type === 1 ? 'PresenterInternal' : 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: type === 1 ? 'PresenterExternal' : 'JobSeeker', displayName: 'Jonna S' },
      { persona: 'karin', role: 'TextInterpreter', displayName: 'Karin Skrivtolk' },
    ],
    type,
  );

const visitor = (meetingId: string) => anonymousSessionUser({ subject: `visitor-${crypto.randomUUID()}`, firstName: 'Vera', lastName: 'Besökare', meetingId });

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('captions from the booked text interpreter', () => {
  it('reach everybody line by line as the line grows, with the interpreter name, and late joiners get the latest lines', async () => {
    const m = await meeting();
    const karin = await join(m.id, 'karin');
    const erik = await join(m.id, 'erik');
    const jonna = await join(m.id, 'jonna');
    for (const text of ['Hej', 'Hej och', 'Hej och välkommen']) karin.caption('l1', text);
    karin.caption('l1', 'Hej och välkommen.', true);
    karin.caption('l2', 'Vi börjar');
    const last = await jonna.next(ChatSignalTypes.caption, (c) => c.text === 'Vi börjar');
    const lines = jonna.of(ChatSignalTypes.caption);
    expect(lines.map((c) => [c.text, c.final])).toEqual([
      ['Hej', false],
      ['Hej och', false],
      ['Hej och välkommen', false],
      ['Hej och välkommen.', true],
      ['Vi börjar', false],
    ]);
    // One id per line (the interpreter's line under their own person id), the name from the session.
    expect(new Set(lines.slice(0, 4).map((c) => c.id)).size).toBe(1);
    expect(last.data.id).not.toBe(lines[0]!.id);
    expect(last.data).toMatchObject({ fromId: karin.welcome!.connectionId, fromName: 'Karin Skrivtolk' });
    await erik.seen(ChatSignalTypes.caption, (c) => c.text === 'Vi börjar');
    // Her identity assurance and role, as everybody sees them: e-ID matched to the booking, Skrivtolk.
    expect(erik.welcome!.participants.find((p) => p.connectionId === karin.welcome!.connectionId)).toMatchObject({ assurance: 'eid', role: 'TextInterpreter' });

    const late = await join(m.id, 'jonna');
    expect(late.welcome!.captions!.map((c) => [c.text, c.final])).toEqual([
      ['Hej och välkommen.', true],
      ['Vi börjar', false],
    ]);

    // The moderator pauses the chat: captions go on (they are how deaf participants follow the call).
    erik.command('COMMAND:CHAT_CLOSE');
    await jonna.next(ChatSignalTypes.status, (st) => !st.chatOpen);
    karin.caption('l2', 'Vi börjar nu.', true);
    await jonna.next(ChatSignalTypes.caption, (c) => c.text === 'Vi börjar nu.' && c.final);
  });

  it('are refused by the server from anyone but the booked text interpreter, who is told why', async () => {
    const m = await meeting(1);
    const karin = await join(m.id, 'karin');
    const erik = await join(m.id, 'erik');
    const jonna = await join(m.id, 'jonna');
    const vera = await join(m.id, visitor(m.id));
    for (const who of [erik, jonna, vera]) {
      const told = who.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR');
      who.caption('fake', 'Detta är inte textning');
      expect((await told).data.message).toBe(CHAT_TEXTS.captionForbidden);
    }
    // A forged role in the frame changes nothing: the role is the booking's.
    const told = jonna.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR');
    jonna.socket.send(JSON.stringify({ type: 'CAPTION', role: 'TextInterpreter', data: { id: 'x', data: 'falsk', final: true, role: 'TextInterpreter' } }));
    expect((await told).data.message).toBe(CHAT_TEXTS.captionForbidden);
    await barrier(jonna, erik, vera, karin);
    expect([erik, jonna, vera, karin].flatMap((c) => c.of(ChatSignalTypes.caption))).toEqual([]);
    expect(await t.app.chat.captions(m.id)).toEqual([]);

    // The webcast's anonymous visitor sees the interpreter's captions.
    karin.caption('a', 'Välkomna till informationsmötet', true);
    expect((await vera.next(ChatSignalTypes.caption)).data).toMatchObject({ text: 'Välkomna till informationsmötet', final: true, fromName: 'Karin Skrivtolk' });
  });

  it('follow the booking at once: the interpreter given another role is cut off and cannot caption again', async () => {
    const m = await meeting();
    const karin = await join(m.id, 'karin');
    const jonna = await join(m.id, 'jonna');
    karin.caption('a', 'Före bytet', true);
    await jonna.next(ChatSignalTypes.caption, (c) => c.text === 'Före bytet');

    const admin = await t.as('erik');
    const current = (await admin.get(`/api/meeting/${m.id}`)).json().data;
    const participants = current.participants.map((p: { displayName: string }) => (p.displayName === 'Karin Skrivtolk' ? { ...p, role: 'Interpreter' } : p));
    const res = await admin.put('/api/meeting', { ...current, participants });
    expect(res.statusCode, res.body).toBe(200);
    // Her socket, whose rights were fixed when it opened, closes at once; a frame still on its way is not sent on.
    expect(await karin.closed(3_000)).toBe(ChatCloseCodes.rightsChanged);
    karin.caption('b', 'Efter bytet, gamla anslutningen', true);
    // Back in with the booking's new role: captions are refused and told why.
    const again = await join(m.id, 'karin');
    const told = again.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR');
    again.caption('c', 'Efter bytet, ny anslutning', true);
    expect((await told).data.message).toBe(CHAT_TEXTS.captionForbidden);
    await barrier(again, jonna);
    expect(jonna.of(ChatSignalTypes.caption).map((c) => c.text)).toEqual(['Före bytet']);
    expect((await t.app.chat.captions(m.id)).map((c) => c.text)).toEqual(['Före bytet']);
  });

  it('follow the session at once: the interpreter who logs out is cut off', async () => {
    const m = await meeting();
    const session = await t.as('karin');
    const karin = await server.connect(m.id, `${SESSION_COOKIE}=${session.cookies[SESSION_COOKIE]}`);
    const jonna = await join(m.id, 'jonna');
    expect((await session.post('/api/login/logout', null)).statusCode).toBe(200);
    expect(await karin.closed(3_000)).toBe(ChatCloseCodes.sessionEnded);
    karin.caption('x', 'Efter utloggningen', true);
    jonna.chat('markör');
    await jonna.next(ChatSignalTypes.chatMessage, (x) => x.message === 'markör');
    expect(jonna.of(ChatSignalTypes.caption)).toEqual([]);
    expect(await t.app.chat.captions(m.id)).toEqual([]);
  });

  it('keep only the latest lines, live in memory for the call only, and go with the chat when the call ends', async () => {
    const m = await meeting();
    const karin = await join(m.id, 'karin');
    const jonna = await join(m.id, 'jonna');
    // A line every 60 ms, faster than anyone types, goes past the chat's 3 a second: captions have their own budget.
    for (let i = 0; i < CAPTION_HISTORY_LIMIT + 5; i++) {
      karin.caption(`l${i}`, `rad ${i}`, true);
      await new Promise((r) => setTimeout(r, 60));
    }
    await jonna.seen(ChatSignalTypes.caption, (c) => c.text === `rad ${CAPTION_HISTORY_LIMIT + 4}`);
    expect(karin.of(ChatSignalTypes.notification)).toEqual([]);
    const kept = await t.app.chat.captions(m.id);
    expect(kept.map((c) => c.text)).toEqual(Array.from({ length: CAPTION_HISTORY_LIMIT }, (_, i) => `rad ${i + 5}`));

    // The call ends while both are in it: nothing is deleted yet, then everything once the last socket closed.
    t.clock.advance(2 * hour);
    expect((await t.app.chat.captions(m.id)).length).toBe(CAPTION_HISTORY_LIMIT);
    await karin.close();
    await jonna.close();
    await waitFor(() => t.app.chat.localCount(m.id) === 0);
    await t.app.chat.idle();
    expect(await t.app.chat.captions(m.id)).toEqual([]);
  });

  it('are purged with the chat by the retention job', async () => {
    const m = await meeting();
    const karin = await join(m.id, 'karin');
    karin.caption('x', 'hemligt', true);
    await karin.seen(ChatSignalTypes.caption);
    expect((await t.app.chat.captions(m.id)).length).toBe(1);
    // Felsökning counts them, never shows them.
    const anna = await t.as('anna');
    const chatProbe = async () => (await anna.get(`/api/admin/troubleshoot?q=${m.id}`)).json().data.chat;
    expect((await chatProbe()).state).toBe('1 textningsrad från skrivtolken sparade under samtalet');
    expect(JSON.stringify(await chatProbe())).not.toContain('hemligt');
    await t.app.chat.purge(m.id);
    expect(await t.app.chat.captions(m.id)).toEqual([]);
    expect((await chatProbe()).state).toBeUndefined();
  });
});
