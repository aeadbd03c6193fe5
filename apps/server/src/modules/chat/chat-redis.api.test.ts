import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ChatCloseCodes, ChatSignalTypes, CHAT_REMOVED_REASONS } from '@videomote/contract/chat';
import { Redis } from 'ioredis';
import { buildApp } from '../../app.ts';
import { buildTestApp, type TestApp } from '../../testing/test-app.ts';
import { insertMeeting, runningMeetingTimes, type FixtureParticipant } from '../../testing/fixtures.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';
import type { Persona } from '../identity/personas.ts';
import { ChatTestClient } from './chat-test-client.ts';
import { CHAT_TEXTS } from './chat-frames.ts';

// Two server processes serving one meeting through Redis. Runs when TEST_REDIS_URL is set (CI sets it; locally:
// TEST_REDIS_URL=redis://127.0.0.1:6379 npx vitest run apps/server/src/modules/chat/chat-redis.api.test.ts).
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('chat across two server processes through Redis', () => {
  let t: TestApp;
  let second: FastifyInstance;
  let urlA: string;
  let urlB: string;
  const clients: ChatTestClient[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ env: { REDIS_URL: redisUrl! } });
    // The second process shares the database (as production nodes do) but has its own sockets and memory.
    second = await buildApp({ config: t.app.deps.config, db: t.db, now: t.clock.now, logger: false });
    await Promise.all([t.app.deps.bus.ready(), second.deps.bus.ready()]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await second.listen({ port: 0, host: '127.0.0.1' });
    urlA = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/chat`;
    urlB = `ws://127.0.0.1:${(second.server.address() as AddressInfo).port}/chat`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await second?.close();
    await t?.close();
  });

  /**
   * A meeting that started a minute ago by the machine's clock, which the sockets' real time follows; the app's test
   * clock is brought up to it, so that the booking reads as started (an edit of a started meeting keeps its start).
   */
  const meetingNow = (participants: FixtureParticipant[], type: 0 | 1 = 0) => {
    t.clock.set(new Date());
    return insertMeeting(t.db, t.app.deps.pins, { type, ...runningMeetingTimes(t.clock.now(), 60_000), participants });
  };

  async function join(base: string, meetingId: string, who: Persona['key']): Promise<ChatTestClient> {
    const c = await t.as(who);
    const client = await ChatTestClient.connect(`${base}/${meetingId}`, `${SESSION_COOKIE}=${c.cookies[SESSION_COOKIE]}`);
    clients.push(client);
    return client;
  }

  it('is ready with Redis answering, and says not ready (redis: false) when Redis cannot be reached', async () => {
    expect((await t.app.internal.inject('/readyz')).json().checks.redis).toBe(true);
    // Nothing listens on port 1: the same app with an unreachable Redis.
    const cut = await buildApp({ config: { ...t.app.deps.config, redisUrl: 'redis://127.0.0.1:1' }, db: t.db, now: t.clock.now, logger: false });
    try {
      const res = await cut.internal.inject('/readyz');
      expect([res.statusCode, res.json().checks.redis]).toEqual([503, false]);
    } finally {
      await cut.close();
    }
  });

  it('delivers messages, moderation and presence from one process to the clients of the other', async () => {
    const m = await meetingNow([
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ], 1);
    const erikOnA = await join(urlA, m.id, 'erik');
    const jonnaOnB = await join(urlB, m.id, 'jonna');
    expect(jonnaOnB.welcome!.participants.map((p) => p.displayName).sort()).toEqual(['Erik Handläggare', 'Jonna Sökande']);
    await erikOnA.next(ChatSignalTypes.presence, (p) => p.joined.some((e) => e.connectionId === jonnaOnB.welcome!.connectionId));

    for (const text of ['ett', 'två', 'tre']) erikOnA.chat(text);
    await jonnaOnB.next(ChatSignalTypes.chatMessage, (msg) => msg.message === 'tre');
    expect(jonnaOnB.of(ChatSignalTypes.chatMessage).map((msg) => msg.message)).toEqual(['ett', 'två', 'tre']);

    jonnaOnB.chat('svar från B');
    const reply = await erikOnA.next(ChatSignalTypes.chatMessage, (msg) => msg.message === 'svar från B');
    expect(reply.data.fromId).toBe(jonnaOnB.welcome!.connectionId);

    // A late joiner on process B sees what was said through process A.
    const late = await join(urlB, m.id, 'erik');
    expect(late.welcome!.history.map((h) => h.message)).toEqual(['ett', 'två', 'tre', 'svar från B']);
    // The history is whole from its first message (it began in this Redis): a reconnecting client keeps nothing older.
    expect(late.welcome!.historySince).toBe(late.welcome!.history[0]!.timestamp);

    // The moderator on A removes a message and pauses; B's client sees both, and its post is refused.
    erikOnA.remove(reply.data.id);
    expect((await jonnaOnB.next(ChatSignalTypes.removeChat)).data.id).toBe(reply.data.id);
    erikOnA.command('COMMAND:CHAT_CLOSE');
    await jonnaOnB.next(ChatSignalTypes.status, (s) => !s.chatOpen);
    jonnaOnB.chat('pausad?');
    expect((await jonnaOnB.next(ChatSignalTypes.notification)).data.message).toBe(CHAT_TEXTS.paused);

    // Switching Jonna's chat off on A also holds on B.
    erikOnA.command('COMMAND:CHAT_OPEN');
    erikOnA.toggleIgnore(jonnaOnB.welcome!.connectionId, true);
    await jonnaOnB.next(ChatSignalTypes.toggleIgnoreChat);
    jonnaOnB.chat('avstängd?');
    expect((await jonnaOnB.next(ChatSignalTypes.notification, (n) => n.message === CHAT_TEXTS.ignored)).data.severity).toBe('ERROR');

    await jonnaOnB.close();
    await erikOnA.next(ChatSignalTypes.presence, (p) => p.left.includes(jonnaOnB.welcome!.connectionId));
    expect(erikOnA.of(ChatSignalTypes.chatMessage).map((msg) => msg.message)).not.toContain('avstängd?');
  });

  it('fans the text interpreter captions out to the other process, keeps them in Redis for the call only, and refuses others', async () => {
    const m = await meetingNow([
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'karin', role: 'TextInterpreter', displayName: 'Karin Skrivtolk' },
    ]);
    const karinOnA = await join(urlA, m.id, 'karin');
    const erikOnB = await join(urlB, m.id, 'erik');
    karinOnA.caption('l1', 'Hej');
    karinOnA.caption('l1', 'Hej allihop', true);
    karinOnA.caption('l2', 'Vi');
    await erikOnB.next(ChatSignalTypes.caption, (c) => c.text === 'Vi');
    expect(erikOnB.of(ChatSignalTypes.caption).map((c) => [c.text, c.final, c.fromName])).toEqual([
      ['Hej', false, 'Karin Skrivtolk'],
      ['Hej allihop', true, 'Karin Skrivtolk'],
      ['Vi', false, 'Karin Skrivtolk'],
    ]);
    // Either process reads the same lines from Redis; a late joiner on B gets them in order.
    const lines = ['Hej allihop', 'Vi'];
    expect((await second.chat.captions(m.id)).map((c) => c.text)).toEqual(lines);
    expect((await join(urlB, m.id, 'erik')).welcome!.captions!.map((c) => c.text)).toEqual(lines);
    const told = erikOnB.next(ChatSignalTypes.notification, (n) => n.severity === 'ERROR');
    erikOnB.caption('x', 'inte min sak');
    expect((await told).data.message).toBe(CHAT_TEXTS.captionForbidden);
    await t.app.chat.purge(m.id);
    expect(await second.chat.captions(m.id)).toEqual([]);
  });

  it('forgets the sockets of a process that died without saying goodbye', async () => {
    const m = await meetingNow([{ persona: 'erik', role: 'PresenterInternal', isAdmin: true }], 1);
    // A presence entry left behind by a killed process: its heartbeat key is gone.
    const redis = new Redis(redisUrl!);
    const ghost = { connectionId: 'ghost-1', participantId: null, displayName: 'Spöke', moderator: false, key: 'v:ghost', node: 'dead-node' };
    await redis.hset(`vm:chat:${m.id}:presence`, ghost.connectionId, JSON.stringify(ghost));
    const erik = await join(urlA, m.id, 'erik');
    expect(erik.welcome!.participants.map((p) => p.displayName)).toEqual(['Erik Handläggare']);
    expect(await redis.hexists(`vm:chat:${m.id}:presence`, ghost.connectionId)).toBe(0);
    await redis.quit();
  });

  it('counts one person with a tab on each process once, and closes their sockets on both when removed from the booking', async () => {
    const m = await meetingNow([
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker', displayName: 'Jonna S' },
      { persona: 'karin', role: 'PrivateContractor' },
    ]);
    const erikOnA = await join(urlA, m.id, 'erik');
    const jonnaOnA = await join(urlA, m.id, 'jonna');
    const jonnaOnB = await join(urlB, m.id, 'jonna');
    const karinOnB = await join(urlB, m.id, 'karin');
    expect(jonnaOnB.welcome!.connectionId).toBe(jonnaOnA.welcome!.connectionId);
    expect(karinOnB.welcome!.participants.map((p) => p.displayName).sort()).toEqual(['Erik Handläggare', 'Jonna S', 'Karin Kompletterande']);
    const bothTabs = [jonnaOnA, jonnaOnB].map((c) => c.next(ChatSignalTypes.chatMessage, (x) => x.message === 'till båda flikarna'));
    erikOnA.chat('till båda flikarna');
    await Promise.all(bothTabs);

    // Erik removes Jonna through process A's API: her socket on B closes too, Karin's on B stays.
    const erik = await t.as('erik');
    const current = (await erik.get(`/api/meeting/${m.id}`)).json().data;
    const res = await erik.put('/api/meeting', { ...current, participants: current.participants.filter((p: { displayName: string }) => p.displayName !== 'Jonna S') });
    expect(res.statusCode, res.body).toBe(200);
    expect(await jonnaOnA.closed()).toBe(ChatCloseCodes.removed);
    expect(await jonnaOnB.closed()).toBe(ChatCloseCodes.removed);
    expect(jonnaOnB.closeReason).toBe(CHAT_REMOVED_REASONS.removed);
    karinOnB.chat('kvar på B');
    await erikOnA.next(ChatSignalTypes.chatMessage, (x) => x.message === 'kvar på B');
    expect(karinOnB.closeCode).toBeNull();

    // Deleting the meeting through process B's API closes the sockets on A.
    const del = await second.inject({
      method: 'DELETE',
      url: `/api/meeting/${m.id}`,
      cookies: erik.cookies,
      headers: { 'x-xsrf-token': erik.cookies['XSRF-TOKEN'] ?? '' },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(await erikOnA.closed()).toBe(ChatCloseCodes.removed);
    expect(await karinOnB.closed()).toBe(ChatCloseCodes.removed);
  });

  it('tells a booking change to a process with no chat socket of the meeting (its media connections act on it)', async () => {
    const m = await meetingNow([
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker', displayName: 'Jonna S' },
    ]);
    const heardOnB: string[] = [];
    const stop = second.deps.events.on((event) => void heardOnB.push(`${event.type} ${event.meetingId}`));
    try {
      const erik = await t.as('erik');
      const current = (await erik.get(`/api/meeting/${m.id}`)).json().data;
      expect((await erik.put('/api/meeting', { ...current, title: 'Ändrad' })).statusCode).toBe(200);
      expect((await erik.delete(`/api/meeting/${m.id}`)).statusCode).toBe(200);
      await expect.poll(() => heardOnB).toEqual([`membershipChanged ${m.id}`, `meetingDeleted ${m.id}`]);
    } finally {
      stop();
    }
  });

  it('ends a session on every process at logout, though the other process has just read it', async () => {
    const jonna = await t.as('jonna');
    const onB = () => second.inject({ url: '/api/login/getuserdata', cookies: jonna.cookies }).then((r) => r.statusCode);
    expect(await onB()).toBe(200);
    expect((await jonna.post('/api/login/logout', null)).statusCode).toBe(200);
    // The test clock stands still, so without the message B would keep its copy of the session for good.
    await expect.poll(onB, { timeout: 2_000 }).toBe(401);
  });
  it('delivers no chat signal written straight into Redis: forged messages are dropped and counted, signed ones delivered', async () => {
    const m = await meetingNow([
      { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
      { persona: 'jonna', role: 'JobSeeker' },
    ]);
    const jonnaOnB = await join(urlB, m.id, 'jonna');
    const erikOnA = await join(urlA, m.id, 'erik');
    const dropped = async () =>
      [...(await second.internal.inject('/metrics')).body.matchAll(/^videomote_cluster_messages_dropped_total\{reason="[^"]+"\} (\d+)$/gm)].reduce((n, x) => n + Number(x[1]), 0);
    const before = await dropped();
    // What someone who can write to Redis would send: a chat message in Erik's name, and the moderator's "chat closed".
    const forged = (message: string) =>
      JSON.stringify({
        type: ChatSignalTypes.chatMessage,
        data: { id: crypto.randomUUID(), type: ChatSignalTypes.chatMessage, message, fromId: erikOnA.welcome!.connectionId, fromName: 'Erik Handläggare', timestamp: new Date().toISOString() },
      });
    const attacker = new Redis(redisUrl!);
    try {
      const channel = `vm:chat:${m.id}:signals`;
      await attacker.publish(channel, forged('Klicka på den här länken'));
      await attacker.publish(channel, JSON.stringify({ from: 'x', at: Date.now(), message: forged('Med påhittad signatur'), mac: 'A'.repeat(43) }));
      await attacker.publish(channel, JSON.stringify({ type: ChatSignalTypes.status, data: { chatOpen: false } }));
    } finally {
      attacker.disconnect();
    }
    // A real message after them: once it has arrived, the forged ones (published before it) have been handled.
    erikOnA.chat('Det riktiga meddelandet');
    await jonnaOnB.next(ChatSignalTypes.chatMessage, (x) => x.message === 'Det riktiga meddelandet');
    expect(jonnaOnB.of(ChatSignalTypes.chatMessage).map((x) => x.message)).toEqual(['Det riktiga meddelandet']);
    expect(jonnaOnB.of(ChatSignalTypes.status).every((st) => st.chatOpen)).toBe(true);
    expect(await dropped()).toBe(before + 3);
  });
});
