import { describe, expect, it } from 'vitest';
import { ChatSignalTypes } from '@videomote/contract/chat';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { chatBarrier as barrier, type ChatTestClient } from './chat-test-client.ts';
import { useChatServer } from './chat-test-server.ts';
import { CHAT_TEXTS } from './chat-frames.ts';

// Raised hands over real WebSocket clients: identity assurance in presence (server-decided, unforgeable) and the
// raised-hand queue with the server as the source of truth.

const server = useChatServer();
const { join } = server;

/** A webcast now: Erik moderates, Jonna (e-ID) and a sign-language interpreter (Karin, e-ID) take part. */
const webcast = () =>
  server.meetingNow(
    [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker', displayName: 'Jonna S' },
      { persona: 'karin', role: 'SignLanguageInterpreter' },
    ],
    1,
  );

const visitor = (meetingId: string) =>
  anonymousSessionUser({ subject: `visitor-${crypto.randomUUID()}`, firstName: 'Vera', lastName: 'Besökare', meetingId });

const handsOf = (c: ChatTestClient) => c.of(ChatSignalTypes.hand);

describe('identity assurance', () => {
  it('is decided by the server from the session: staff, e-ID matching the booking, anonymous visitor; with the booked role', async () => {
    const m = await webcast();
    const erik = await join(m.id, 'erik');
    const jonna = await join(m.id, 'jonna');
    const karin = await join(m.id, 'karin');
    const vera = await join(m.id, visitor(m.id));
    const byName = Object.fromEntries(vera.welcome!.participants.map((p) => [p.displayName, p]));
    expect(byName['Erik Handläggare']).toMatchObject({ assurance: 'staff', role: 'EmploymentOfficer', moderator: true, hand: null });
    expect(byName['Jonna S']).toMatchObject({ assurance: 'eid', role: 'JobSeeker' });
    expect(byName['Karin Kompletterande']).toMatchObject({ assurance: 'eid', role: 'SignLanguageInterpreter' });
    expect(byName['Vera Besökare']).toMatchObject({ assurance: 'anonymous', role: null, participantId: null });
    // The live presence signal carries the same.
    const joined = await erik.next(ChatSignalTypes.presence, (p) => p.joined.some((e) => e.connectionId === vera.welcome!.connectionId));
    expect(joined.data.joined[0]).toMatchObject({ assurance: 'anonymous', role: null });
    void jonna;
    void karin;
  });

  it('ignores a client that claims its own assurance or role in any frame', async () => {
    const m = await webcast();
    const erik = await join(m.id, 'erik');
    const vera = await join(m.id, visitor(m.id));
    const id = vera.welcome!.connectionId;
    const forged = [
      { type: 'PRESENCE', data: { joined: [{ connectionId: id, displayName: 'Vera', assurance: 'eid', role: 'SignLanguageInterpreter' }], left: [] } },
      { type: 'ASSURANCE', data: { id: 'x', data: 'eid' } },
      { type: 'CHAT_MESSAGE', from: id, displayName: 'Anna Admin', assurance: 'staff', role: 'EmploymentOfficer', data: { id: 'x', data: 'hej', assurance: 'eid' } },
    ];
    const refusals = [vera.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR'), vera.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR')];
    for (const f of forged) vera.socket.send(JSON.stringify(f));
    expect((await Promise.all(refusals)).map((r) => r.data.message)).toEqual([CHAT_TEXTS.invalid, CHAT_TEXTS.invalid]);
    await barrier(vera, erik);
    // Nobody else got a presence change, and a fresh look at the meeting still says 'anonymous'.
    expect(erik.of(ChatSignalTypes.presence).every((p) => p.joined.every((e) => e.assurance !== 'eid' || e.displayName !== 'Vera'))).toBe(true);
    const chat = erik.of(ChatSignalTypes.chatMessage).find((c) => c.message === 'hej')!;
    expect(chat.fromName).toBe('Vera Besökare');
    expect(JSON.stringify(chat)).not.toContain('staff');
    const late = await join(m.id, 'jonna');
    expect(late.welcome!.participants.find((p) => p.connectionId === id)).toMatchObject({ assurance: 'anonymous', role: null, displayName: 'Vera Besökare' });
  });
});

describe('raised hands', () => {
  it('reach the moderator in the order the server received them, also for webcast visitors and late joiners', async () => {
    const m = await webcast();
    const erik = await join(m.id, 'erik');
    const jonna = await join(m.id, 'jonna');
    const vera = await join(m.id, visitor(m.id));
    const karin = await join(m.id, 'karin');
    vera.raiseHand();
    await barrier(vera, erik);
    jonna.raiseHand();
    await barrier(jonna, erik);
    karin.raiseHand();
    karin.raiseHand(); // a second raise keeps the first place
    await barrier(karin, erik);
    const hands = handsOf(erik);
    expect(hands.map((h) => h.connectionId)).toEqual([vera, jonna, karin].map((c) => c.welcome!.connectionId));
    expect(hands[0]!.hand! < hands[1]!.hand! && hands[1]!.hand! < hands[2]!.hand!).toBe(true);
    // A late joiner (a reconnecting moderator) gets the queue in the welcome.
    const again = await join(m.id, 'erik');
    const queue = again.welcome!.participants.filter((p) => p.hand != null).sort((a, b) => a.hand! - b.hand!);
    expect(queue.map((p) => p.displayName)).toEqual(['Vera Besökare', 'Jonna S', 'Karin Kompletterande']);
  });

  it('go down by their owner or by a moderator; others may not lower someone else’s hand', async () => {
    const m = await webcast();
    const erik = await join(m.id, 'erik');
    const jonna = await join(m.id, 'jonna');
    const vera = await join(m.id, visitor(m.id));
    jonna.raiseHand();
    vera.raiseHand();
    await barrier(vera, erik);
    // Vera tries to lower Jonna's hand: refused, nothing fanned out.
    const refused = vera.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR');
    vera.lowerHand(jonna.welcome!.connectionId);
    expect((await refused).data.message).toBe(CHAT_TEXTS.handForbidden);
    await barrier(vera, erik);
    expect(handsOf(erik).filter((h) => h.hand === null)).toEqual([]);
    // The moderator lowers Jonna's; Vera lowers her own.
    erik.lowerHand(jonna.welcome!.connectionId);
    await barrier(erik, jonna);
    vera.lowerHand();
    await barrier(vera, jonna);
    expect(handsOf(jonna).filter((h) => h.hand === null).map((h) => h.connectionId)).toEqual([jonna.welcome!.connectionId, vera.welcome!.connectionId]);
    // Lowering a hand that is down changes nothing and says nothing.
    erik.lowerHand(jonna.welcome!.connectionId);
    await barrier(erik, jonna);
    expect(handsOf(jonna)).toHaveLength(4);
  });

  it('goes down with the socket that raised it', async () => {
    const m = await webcast();
    const erik = await join(m.id, 'erik');
    const jonna = await join(m.id, 'jonna');
    jonna.raiseHand();
    await barrier(jonna, erik);
    const gone = erik.next(ChatSignalTypes.presence, (p) => p.left.includes(jonna.welcome!.connectionId));
    await jonna.close();
    await gone;
    const later = await join(m.id, 'jonna');
    expect(later.welcome!.participants.filter((p) => p.hand != null)).toEqual([]);
  });
});
