import { describe, expect, it } from 'vitest';
import { ChatCloseCodes, ChatSignalTypes, CHAT_MAX_LENGTH, type ChatMessageEvent } from '@videomote/contract/chat';
import { SESSION_COOKIE } from '../../platform/session.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';
import { chatBarrier as barrier, type ChatTestClient } from './chat-test-client.ts';
import { useChatServer } from './chat-test-server.ts';
import { CHAT_TEXTS } from './chat-frames.ts';

const server = useChatServer();
const { t, cookieOf, connect, join } = server;

const hour = 3600_000;

/** A meeting now: Erik moderates, Jonna and Karin take part. Type 1 is a webcast. */
const meeting = (type: 0 | 1 = 0) =>
  server.meetingNow(
    [
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker', displayName: 'Jonna S' },
      { persona: 'karin', role: 'PrivateContractor' },
    ],
    type,
  );

const visitor = (meetingId: string, firstName = 'Vera', lastName = 'Besökare') =>
  anonymousSessionUser({ subject: `visitor-${crypto.randomUUID()}`, firstName, lastName, meetingId });

const refusal = (promise: Promise<unknown>) => promise.then(() => 'connected', (err: Error) => err.message);
const chatsOf = (c: ChatTestClient) => c.of(ChatSignalTypes.chatMessage).map((m) => m.message);
const lastError = (c: ChatTestClient) => c.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR');

describe('who may connect', () => {
  it('lets the meeting participants in and tells each who they are, with the sender name from the booking', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    const jonna = await join(m.id, 'jonna');
    expect(erik.welcome).toMatchObject({ moderator: true, participantId: m.participantIds[0], meetingType: 0, chatOpen: true });
    expect(jonna.welcome).toMatchObject({ moderator: false, participantId: m.participantIds[1] });
    expect(jonna.welcome!.participants.map((p) => p.displayName).sort()).toEqual(['Erik Handläggare', 'Jonna S']);
    const joined = await erik.next(ChatSignalTypes.presence, (p) => p.joined.some((e) => e.connectionId === jonna.welcome!.connectionId));
    expect(joined.type).toBe(ChatSignalTypes.presence);
  });

  it('refuses a stranger, an unknown meeting, no session, a foreign origin, and a visitor of another meeting', async () => {
    const m = await meeting(1);
    const other = await meeting(1);
    expect(await refusal(connect(m.id, await cookieOf('fredrik')))).toBe('refused: 403');
    expect(await refusal(connect(crypto.randomUUID(), await cookieOf('erik')))).toBe('refused: 403');
    expect(await refusal(connect('not-a-uuid', await cookieOf('erik')))).toBe('refused: 403');
    expect(await refusal(connect(m.id, null))).toBe('refused: 401');
    expect(await refusal(connect(m.id, await cookieOf('erik'), { origin: 'https://evil.example' }))).toBe('refused: 403');
    expect(await refusal(connect(m.id, await cookieOf(visitor(other.id))))).toBe('refused: 403');
    // A visitor of this webcast gets in, but a regular meeting admits no visitors at all.
    const v = await join(m.id, visitor(m.id));
    expect(v.welcome).toMatchObject({ participantId: null, moderator: false, meetingType: 1 });
    const regular = await meeting(0);
    expect(await refusal(connect(regular.id, await cookieOf(visitor(regular.id))))).toBe('refused: 403');
  });
});

describe('messages', () => {
  it('reach every member in the order they were sent, named by the server, never by the frame', async () => {
    const m = await meeting();
    const [erik, jonna, karin] = [await join(m.id, 'erik'), await join(m.id, 'jonna'), await join(m.id, 'karin')];
    const texts = Array.from({ length: 8 }, (_, i) => `meddelande ${i + 1}`);
    for (const text of texts) jonna.chat(text);
    await barrier(jonna, erik, jonna, karin);
    for (const c of [erik, jonna, karin]) expect(chatsOf(c).slice(0, 8)).toEqual(texts);
    const first = erik.of(ChatSignalTypes.chatMessage)[0]!;
    expect(first).toMatchObject({ fromId: jonna.welcome!.connectionId, fromName: 'Jonna S', type: 'CHAT_MESSAGE' });
    expect(new Date(first.timestamp).toISOString()).toBe(first.timestamp);
  });

  it('carries markup as plain text, exactly as typed', async () => {
    const m = await meeting();
    const [erik, jonna] = [await join(m.id, 'erik'), await join(m.id, 'jonna')];
    const payloads = ['<script>alert("x")</script>', '<img src=x onerror="alert(1)">'];
    for (const p of payloads) jonna.chat(p);
    await barrier(jonna, erik);
    expect(chatsOf(erik).slice(0, 2)).toEqual(payloads);
  });

  it('are kept for a late joiner and a reconnect, and deleted when the call has ended and the last one left', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    erik.chat('hej alla');
    await barrier(erik, erik);
    const jonna = await join(m.id, 'jonna');
    expect(jonna.welcome!.history.map((h) => h.message)).toEqual(['hej alla', expect.stringMatching(/^marker-/)]);
    expect(jonna.welcome!.historySince).toBe(jonna.welcome!.history[0]!.timestamp);

    // The meeting ends while people are still in it; the content goes when the last socket closes.
    t.clock.advance(2 * hour);
    await erik.close();
    await jonna.close();
    await waitFor(() => t.app.chat.localCount(m.id) === 0);
    await t.app.chat.idle();
    const again = await join(m.id, 'erik');
    expect(again.welcome!.history).toEqual([]);
  });

  it('can be purged by the retention job', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    erik.chat('hemligt');
    await barrier(erik, erik);
    await t.app.chat.purge(m.id);
    await erik.close();
    expect((await join(m.id, 'jonna')).welcome!.history).toEqual([]);
  });

  it('refuses an oversized frame, a too long message and a flood without harming the others', async () => {
    const m = await meeting();
    const [erik, jonna, karin] = [await join(m.id, 'erik'), await join(m.id, 'jonna'), await join(m.id, 'karin')];

    karin.chat('x'.repeat(CHAT_MAX_LENGTH + 1));
    expect((await lastError(karin)).data.message).toBe(CHAT_TEXTS.tooLong);

    // 20 KB: over our frame limit, under the transport's. 100 KB: over both. Either closes only that socket.
    const big = await join(m.id, 'karin');
    big.socket.send('y'.repeat(20 * 1024));
    expect(await big.closed()).toBe(1009);
    const huge = await join(m.id, 'karin');
    huge.socket.send('z'.repeat(100 * 1024));
    expect(await huge.closed()).toBe(1009);

    const flooder = await join(m.id, 'jonna');
    for (let i = 0; i < 500; i++) if (flooder.socket.readyState === flooder.socket.OPEN) flooder.chat(`flood ${i}`);
    expect(await flooder.closed()).toBe(1008);
    expect(flooder.of(ChatSignalTypes.notification).map((n) => n.message)).toContain(CHAT_TEXTS.rateLimited);

    // The others are still connected and chatting; at most one burst of the flood reached them.
    await barrier(jonna, erik, karin);
    expect(chatsOf(erik).filter((x) => x.startsWith('flood')).length).toBeLessThanOrEqual(10);
    expect([erik, jonna, karin].every((c) => c.closeCode === null)).toBe(true);
  });
});

describe('moderator powers, enforced by the server', () => {
  it('refuse a non-moderator removing, pausing and switching chat off', async () => {
    const m = await meeting(1);
    const [erik, jonna, karin] = [await join(m.id, 'erik'), await join(m.id, 'jonna'), await join(m.id, 'karin')];
    erik.chat('viktigt');
    const msg = await jonna.next(ChatSignalTypes.chatMessage);

    jonna.remove(msg.data.id);
    expect((await lastError(jonna)).data.message).toBe(CHAT_TEXTS.forbidden);
    jonna.command('COMMAND:CHAT_CLOSE');
    expect((await lastError(jonna)).data.message).toBe(CHAT_TEXTS.forbidden);
    jonna.toggleIgnore(karin.welcome!.connectionId, true);
    expect((await lastError(jonna)).data.message).toBe(CHAT_TEXTS.forbidden);

    // Nothing happened: karin can still post, the message is still there, chat is open.
    await barrier(karin, erik);
    expect(erik.of(ChatSignalTypes.removeChat)).toEqual([]);
    expect(erik.of(ChatSignalTypes.status)).toEqual([]);
    expect(erik.of(ChatSignalTypes.toggleIgnoreChat)).toEqual([]);
  });

  it('let a moderator remove a message for everybody and for late joiners', async () => {
    const m = await meeting();
    const [erik, jonna] = [await join(m.id, 'erik'), await join(m.id, 'jonna')];
    jonna.chat('olämpligt');
    const msg = (await erik.next(ChatSignalTypes.chatMessage)).data;
    erik.remove(msg.id);
    expect((await jonna.next(ChatSignalTypes.removeChat)).data).toEqual({ id: msg.id });
    const karin = await join(m.id, 'karin');
    expect(karin.welcome!.history.map((h: ChatMessageEvent) => h.id)).not.toContain(msg.id);
  });

  it('pause: non-moderators are dropped, the moderator still posts, and resuming lets everyone in again', async () => {
    const m = await meeting(1);
    const [erik, jonna] = [await join(m.id, 'erik'), await join(m.id, 'jonna')];
    const v = await join(m.id, visitor(m.id));
    erik.command('COMMAND:CHAT_CLOSE');
    expect((await v.next(ChatSignalTypes.status)).data).toEqual({ chatOpen: false });
    expect((await join(m.id, 'karin')).welcome!.chatOpen).toBe(false);

    jonna.chat('får jag prata?');
    v.chat('jag då?');
    expect((await lastError(jonna)).data.message).toBe(CHAT_TEXTS.paused);
    expect((await lastError(v)).data.message).toBe(CHAT_TEXTS.paused);
    await barrier(erik, erik, jonna, v);
    expect(chatsOf(v)).toEqual([expect.stringMatching(/^marker-/)]);

    erik.command('COMMAND:CHAT_OPEN');
    await v.next(ChatSignalTypes.status, (st) => st.chatOpen);
    await barrier(v, erik);
    expect(chatsOf(erik).filter((x) => !x.startsWith('marker-'))).toEqual([]);
  });

  it("switching one participant's chat off drops their messages for everybody, across reconnects, until switched on", async () => {
    const m = await meeting(1);
    const erik = await join(m.id, 'erik');
    const vUser = visitor(m.id, 'Sven', 'Stör');
    const vCookie = await cookieOf(vUser);
    const v = await connect(m.id, vCookie);
    const jonna = await join(m.id, 'jonna');

    erik.toggleIgnore(v.welcome!.connectionId, true);
    expect((await jonna.next(ChatSignalTypes.toggleIgnoreChat)).data).toEqual({ connectionId: v.welcome!.connectionId, ignore: true });
    v.chat('spam');
    expect((await lastError(v)).data.message).toBe(CHAT_TEXTS.ignored);

    // Reloading the page (same session, new connection id) does not switch it back on.
    await v.close();
    const v2 = await connect(m.id, vCookie);
    expect(v2.welcome!.participants.find((p) => p.connectionId === v2.welcome!.connectionId)?.chatIgnored).toBe(true);
    v2.chat('spam igen');
    await lastError(v2);
    await barrier(jonna, erik, jonna);
    expect(chatsOf(erik).filter((x) => x.startsWith('spam'))).toEqual([]);
    expect(chatsOf(jonna).filter((x) => x.startsWith('spam'))).toEqual([]);

    // A moderator cannot be switched off; switching back on works.
    erik.toggleIgnore(erik.welcome!.connectionId, true);
    expect((await lastError(erik)).data.message).toBe(CHAT_TEXTS.moderatorCannotBeMuted);
    erik.toggleIgnore(v2.welcome!.connectionId, false);
    await jonna.next(ChatSignalTypes.toggleIgnoreChat, (x) => !x.ignore);
    v2.chat('förlåt');
    expect((await erik.next(ChatSignalTypes.chatMessage, (m) => m.message === 'förlåt')).data.fromName).toBe('Sven Stör');
  });
});

describe('presence', () => {
  it('announces joins and leaves with participant id, name and moderator flag', async () => {
    const m = await meeting(1);
    const erik = await join(m.id, 'erik');
    const v = await join(m.id, visitor(m.id));
    const joined = await erik.next(ChatSignalTypes.presence, (p) => p.joined[0]?.connectionId === v.welcome!.connectionId);
    // toMatchObject: presence entries may carry more (extensions of the contract); these fields must be right.
    expect(joined.data.joined[0]).toMatchObject({ connectionId: v.welcome!.connectionId, participantId: null, displayName: 'Vera Besökare', moderator: false, chatIgnored: false });
    await v.close();
    const left = await erik.next(ChatSignalTypes.presence, (p) => p.left.includes(v.welcome!.connectionId));
    expect(left.data.joined).toEqual([]);
  });

  it('drops a socket that stops answering pings, and tells the others it left', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    const silent = await connect(m.id, await cookieOf('jonna'), {}, { autoPong: false });
    const hub = t.app.chat as unknown as { heartbeat(): void };
    hub.heartbeat();
    await barrier(erik, erik); // erik's pong has come back by the time his own message does
    hub.heartbeat();
    expect(await silent.closed()).toBe(1006);
    await waitFor(() => erik.of(ChatSignalTypes.presence).some((p) => p.left.includes(silent.welcome!.connectionId)));
    expect(erik.closeCode).toBeNull();
  });

  it('answers the client\'s health check to that socket alone; a half-open socket replaced by a new one of the same person keeps one presence entry and the history', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    // A socket whose network went away: it neither answers pings nor says goodbye.
    const stale = await connect(m.id, await cookieOf('jonna'), {}, { autoPong: false });
    stale.command('COMMAND:PING');
    await stale.next(ChatSignalTypes.pong);
    erik.chat('före bytet');
    await stale.next(ChatSignalTypes.chatMessage);
    // The page gave the silent socket up and opened a new one: the same person, the messages it may have missed.
    const fresh = await join(m.id, 'jonna');
    expect(fresh.welcome!.connectionId).toBe(stale.welcome!.connectionId);
    expect(fresh.welcome!.history.map((h) => h.message)).toEqual(['före bytet']);
    expect(fresh.welcome!.participants.filter((p) => p.connectionId === fresh.welcome!.connectionId)).toHaveLength(1);
    const hub = t.app.chat as unknown as { heartbeat(): void };
    hub.heartbeat();
    await barrier(erik, erik, fresh);
    hub.heartbeat();
    expect(await stale.closed()).toBe(1006);
    // The old socket's end is no leave: Jonna is still there on the new one, and chat reaches her.
    erik.chat('efter bytet');
    await fresh.next(ChatSignalTypes.chatMessage, (c) => c.message === 'efter bytet');
    expect(erik.of(ChatSignalTypes.presence).some((p) => p.left.includes(fresh.welcome!.connectionId))).toBe(false);
    expect(erik.of(ChatSignalTypes.pong)).toEqual([]);
  });

  it('closes the socket when the session expires (read again by the session watch)', async () => {
    const m = await meeting();
    const c = await t.as('jonna');
    const client = await connect(m.id, `${SESSION_COOKIE}=${c.cookies[SESSION_COOKIE]}`);
    await t.app.chat.checkSessions();
    expect(client.closeCode).toBeNull();
    t.clock.advance(2 * hour); // past SESSION_MINUTES without a keep-alive
    await t.app.chat.checkSessions();
    expect(await client.closed()).toBe(ChatCloseCodes.sessionEnded);
  });

  it('follows a logout at once: the socket closes, and nothing said after it reaches it or comes from it', async () => {
    const m = await meeting();
    const erik = await join(m.id, 'erik');
    const c = await t.as('jonna');
    const jonna = await connect(m.id, `${SESSION_COOKIE}=${c.cookies[SESSION_COOKIE]}`);
    // Another session of the same person (another browser) is not logged out with this one.
    const otherTab = await join(m.id, 'jonna');
    jonna.chat('före utloggning');
    await erik.next(ChatSignalTypes.chatMessage, (x) => x.message === 'före utloggning');

    expect((await c.post('/api/login/logout', null)).statusCode).toBe(200);
    // At once: well before the minute in which the sessions are read again.
    expect(await jonna.closed(3_000)).toBe(ChatCloseCodes.sessionEnded);
    jonna.chat('efter utloggning');
    erik.chat('till alla efter utloggningen');
    await otherTab.next(ChatSignalTypes.chatMessage, (x) => x.message === 'till alla efter utloggningen');
    expect(chatsOf(jonna)).not.toContain('till alla efter utloggningen');
    expect(chatsOf(erik)).not.toContain('efter utloggning');
    expect(otherTab.closeCode).toBeNull();
  });
});

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
