import { describe, expect, it } from 'vitest';
import { ChatCloseCodes, ChatSignalTypes, CHAT_REMOVED_REASONS } from '@videomote/contract/chat';
import { CHAT_TEXTS } from './chat-frames.ts';
import { useChatServer } from './chat-test-server.ts';

/**
 * Chat membership, with real WebSocket clients against the running server (PGlite, one process):
 *  - one person with two tabs is one participant in presence, Felsökning and metrics, and both tabs deliver;
 *  - a participant removed from the booking, or everyone when the meeting is deleted, is disconnected at once.
 * The same across two processes through Redis is in chat-redis.api.test.ts.
 */
const server = useChatServer();
// Each join logs in anew: a second tab may well be a second session (another browser window, a re-login).
const join = (meetingId: string, who: 'erik' | 'jonna' | 'karin') => server.join(meetingId, who);
const meeting = () =>
  server.meetingNow([
    { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
    { persona: 'jonna', role: 'JobSeeker', displayName: 'Jonna S' },
    { persona: 'karin', role: 'PrivateContractor' },
  ]);

const metric = async (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec((await server.t.app.internal.inject({ url: '/metrics' })).body)?.[1]);

describe('one person, two tabs', () => {
  it('counts the person once in presence, Felsökning and metrics, while both tabs keep delivering', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    const tab1 = await join(m.id, 'jonna');
    const jonnaId = tab1.welcome!.connectionId;
    await erik.seen(ChatSignalTypes.presence, (p) => p.joined.some((e) => e.connectionId === jonnaId));
    const tab2 = await join(m.id, 'jonna');
    // The second tab is the same person to everybody: same id, and its join replaces the entry instead of adding one.
    expect(tab2.welcome!.connectionId).toBe(jonnaId);
    expect(tab2.welcome!.participants.map((p) => p.displayName).sort()).toEqual(['Erik Handläggare', 'Jonna S']);
    const jonnaJoins = () => erik.of(ChatSignalTypes.presence).filter((p) => p.joined.some((e) => e.connectionId === jonnaId));
    await erik.seen(ChatSignalTypes.presence, () => jonnaJoins().length >= 2);
    expect(jonnaJoins().map((p) => p.joined.map((e) => e.connectionId))).toEqual([[jonnaId], [jonnaId]]);
    const late = await join(m.id, 'karin');
    expect(late.welcome!.participants.map((p) => p.displayName).sort()).toEqual(['Erik Handläggare', 'Jonna S', 'Karin Kompletterande']);

    // Felsökning: one line for Jonna, saying she has two connections.
    const ts = (await (await server.t.as('anna')).get(`/api/admin/troubleshoot?q=${m.id}`)).json().data;
    expect(ts.chat.connections.map((c: { displayName: string; detail: string }) => [c.displayName, c.detail]).sort()).toEqual([
      ['Erik Handläggare', 'moderator'],
      ['Jonna S', '2 anslutningar'],
      ['Karin Kompletterande', ''],
    ]);
    // Metrics: four sockets, three people.
    expect(await metric('videomote_chat_sockets')).toBe(4);
    expect(await metric('videomote_chat_participants')).toBe(3);

    // Both tabs receive; what one tab sends is the other tab's own message (same sender id).
    erik.chat('Hej Jonna');
    await tab1.seen(ChatSignalTypes.chatMessage, (x) => x.message === 'Hej Jonna');
    await tab2.seen(ChatSignalTypes.chatMessage, (x) => x.message === 'Hej Jonna');
    tab1.chat('Från flik ett');
    const inTab2 = await tab2.next(ChatSignalTypes.chatMessage, (x) => x.message === 'Från flik ett');
    expect(inTab2.data.fromId).toBe(tab2.welcome!.connectionId);

    // One hand per person: the second tab raising it changes nothing; the moderator lowers it for both.
    tab1.raiseHand();
    const up = await erik.next(ChatSignalTypes.hand, (h) => h.connectionId === jonnaId && h.hand !== null);
    tab2.raiseHand();
    // Frames of one socket are handled in order: once this message is back, the raise above has been handled.
    tab2.chat('efter handen');
    await tab2.next(ChatSignalTypes.chatMessage, (x) => x.message === 'efter handen');
    erik.lowerHand(jonnaId);
    await erik.next(ChatSignalTypes.hand, (h) => h.connectionId === jonnaId && h.hand === null);
    expect(erik.of(ChatSignalTypes.hand).filter((h) => h.hand !== null)).toEqual([up.data]);

    // Closing one tab does not make Jonna leave; closing the last one does.
    await tab1.close();
    await erik.seen(ChatSignalTypes.hand, () => erik.of(ChatSignalTypes.hand).length >= 3);
    expect(erik.of(ChatSignalTypes.hand).at(-1)).toEqual({ connectionId: jonnaId, hand: null });
    erik.chat('Är du kvar?');
    await tab2.next(ChatSignalTypes.chatMessage, (x) => x.message === 'Är du kvar?');
    expect(erik.of(ChatSignalTypes.presence).flatMap((p) => p.left)).toEqual([]);
    await tab2.close();
    const left = await erik.seen(ChatSignalTypes.presence, (p) => p.left.length > 0);
    expect(left.data.left).toEqual([jonnaId]);
    expect(await metric('videomote_chat_participants')).toBe(2);
  });

  it('switches chat off for the person, whichever tab, and keeps it off for a new tab', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    const tab1 = await join(m.id, 'jonna');
    const tab2 = await join(m.id, 'jonna');
    const seen = [tab2.next(ChatSignalTypes.toggleIgnoreChat, (x) => x.ignore), erik.next(ChatSignalTypes.toggleIgnoreChat, (x) => x.ignore)];
    erik.toggleIgnore(tab1.welcome!.connectionId, true);
    await Promise.all(seen);
    tab2.chat('Syns detta?');
    expect((await tab2.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR')).data.message).toBe(CHAT_TEXTS.ignored);
    expect(erik.of(ChatSignalTypes.toggleIgnoreChat)).toEqual([{ connectionId: tab1.welcome!.connectionId, ignore: true }]);
    const tab3 = await join(m.id, 'jonna');
    expect(tab3.welcome!.participants.find((p) => p.connectionId === tab3.welcome!.connectionId)?.chatIgnored).toBe(true);
  });
});

describe('removed from the booking', () => {
  async function updateWithout(meetingId: string, displayName: string) {
    const erik = await server.t.as('erik');
    const current = (await erik.get(`/api/meeting/${meetingId}`)).json().data;
    const res = await erik.put('/api/meeting', { ...current, participants: current.participants.filter((p: { displayName: string }) => p.displayName !== displayName) });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('closes the removed participant’s sockets (both tabs) with 4403 and a reason, and leaves everyone else connected', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    const karin = await join(m.id, 'karin');
    const tab1 = await join(m.id, 'jonna');
    const tab2 = await join(m.id, 'jonna');
    const reasons: string[] = [];
    for (const tab of [tab1, tab2]) tab.socket.once('close', (_code, reason) => reasons.push(reason.toString()));

    await updateWithout(m.id, 'Jonna S');
    expect(await tab1.closed()).toBe(ChatCloseCodes.removed);
    expect(await tab2.closed()).toBe(ChatCloseCodes.removed);
    expect(reasons).toEqual([CHAT_REMOVED_REASONS.removed, CHAT_REMOVED_REASONS.removed]);
    // The others are untouched and see her leave; she cannot come back.
    await erik.seen(ChatSignalTypes.presence, (p) => p.left.includes(tab1.welcome!.connectionId));
    karin.chat('Fortfarande här');
    await erik.next(ChatSignalTypes.chatMessage, (x) => x.message === 'Fortfarande här');
    expect(erik.closeCode).toBeNull();
    await expect(join(m.id, 'jonna')).rejects.toThrow('refused: 403');

    // An update that removes nobody closes nobody.
    const erikMeeting = (await (await server.t.as('erik')).get(`/api/meeting/${m.id}`)).json().data;
    expect((await (await server.t.as('erik')).put('/api/meeting', { ...erikMeeting, title: 'Nytt namn' })).statusCode).toBe(200);
    karin.chat('Efter namnbytet');
    await erik.next(ChatSignalTypes.chatMessage, (x) => x.message === 'Efter namnbytet');
    expect([erik.closeCode, karin.closeCode]).toEqual([null, null]);
  });

  it('made a moderator: that participant’s socket closes with 4409 and the new one has the rights; nobody else is touched', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    const karin = await join(m.id, 'karin');
    expect(karin.welcome!.moderator).toBe(false);
    const admin = await server.t.as('erik');
    const current = (await admin.get(`/api/meeting/${m.id}`)).json().data;
    const participants = current.participants.map((p: { displayName: string }) => (p.displayName === 'Karin Kompletterande' ? { ...p, isAdmin: true } : p));
    const res = await admin.put('/api/meeting', { ...current, participants });
    expect(res.statusCode, res.body).toBe(200);
    expect(await karin.closed()).toBe(ChatCloseCodes.rightsChanged);
    const again = await join(m.id, 'karin');
    expect(again.welcome!.moderator).toBe(true);
    // What a moderator may do, she now can: pause the chat for participants.
    again.command('COMMAND:CHAT_CLOSE');
    await erik.next(ChatSignalTypes.status, (st) => !st.chatOpen);
    expect(erik.closeCode).toBeNull();
  });

  it('closes every socket of a deleted meeting with 4403 and the reason that it was deleted', async () => {
    const m = await meeting();
    const other = await meeting();
    const erik = await join(m.id, 'erik');
    const jonna = await join(m.id, 'jonna');
    const elsewhere = await join(other.id, 'jonna');
    const reason = new Promise<string>((resolve) => jonna.socket.once('close', (_c, r) => resolve(r.toString())));
    expect((await (await server.t.as('erik')).delete(`/api/meeting/${m.id}`)).statusCode).toBe(200);
    expect(await erik.closed()).toBe(ChatCloseCodes.removed);
    expect(await jonna.closed()).toBe(ChatCloseCodes.removed);
    expect(await reason).toBe(CHAT_REMOVED_REASONS.deleted);
    // Another meeting's socket of the same person is not touched.
    elsewhere.chat('Här är allt som vanligt');
    await elsewhere.next(ChatSignalTypes.chatMessage, (x) => x.message === 'Här är allt som vanligt');
    expect(elsewhere.closeCode).toBeNull();
  });
});
