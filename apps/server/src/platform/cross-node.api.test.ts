import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../app.ts';
import { buildTestApp, type TestApp, type TestClient } from '../testing/test-app.ts';
import { SESSION_COOKIE } from './session.ts';

// Two app nodes on one database and one Redis, as behind the proxy in production: what one node decides about a
// caller (a spent budget, an ended session) the other knows at once. Needs a real Redis (TEST_REDIS_URL, set by
// .ci/run); the database is TEST_DATABASE_URL's PostgreSQL when set, else PGlite shared by both nodes.
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) console.log('SKIPPED: cross-node rate limit and logout (TEST_REDIS_URL is not set; .ci/run sets it)');

describe.skipIf(!redisUrl)('two app nodes sharing PostgreSQL and Redis', () => {
  let t: TestApp;
  let nodeB: FastifyInstance;

  beforeAll(async () => {
    // One configuration for both (same PIN key, same Redis), as the operator's environment file gives every node.
    t = await buildTestApp({ env: { REDIS_URL: redisUrl!, SESSION_CACHE_SECONDS: '30' } });
    nodeB = await buildApp({ config: t.app.deps.config, db: t.db, now: t.clock.now, logger: false });
    await nodeB.ready();
    await Promise.all([t.app.deps.bus.ready(), nodeB.deps.bus.ready()]);
  });
  afterAll(async () => {
    await nodeB?.close();
    await t?.close();
  });

  /** The same client's request sent to node B (the proxy may send any request to either node). */
  const onB = (client: TestClient, options: InjectOptions) =>
    nodeB.inject({ ...options, cookies: { ...client.cookies }, headers: { 'x-xsrf-token': client.cookies['XSRF-TOKEN'] ?? '', ...(options.headers ?? {}) } });

  it('counts one login budget (30 a minute per address) over both nodes', async () => {
    // An address of its own, so counters left in the shared Redis by an earlier run cannot take part.
    const remoteAddress = `198.18.${crypto.randomInt(0, 256)}.${crypto.randomInt(1, 255)}`;
    const start = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/login/start?returnUrl=%2Fmeetings', remoteAddress });
    const statuses: number[] = [];
    // 15 on each node: within a per-process budget of 30 on either, so only a shared count can refuse the next one.
    for (let i = 0; i < 15; i++) statuses.push((await start(t.app)).statusCode, (await start(nodeB)).statusCode);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    const refused = await start(nodeB);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ name: 'TooManyRequests', message: 'För många förfrågningar, försök igen om en stund' });
    // And on the other node too; another address still has its whole budget.
    expect((await start(t.app)).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: '/api/login/start?returnUrl=%2Fmeetings', remoteAddress: '198.19.0.1' })).statusCode).not.toBe(429);
  });

  it('ends a session on every node at once when it is logged out on one', async () => {
    const erik = await t.as('erik');
    // Node B has read the session and keeps it in its cache (30 s here): only the cluster bus can end it sooner.
    expect((await onB(erik, { method: 'GET', url: '/api/login/keepalive' })).statusCode).toBe(200);
    expect((await erik.post('/api/login/logout', null)).statusCode).toBe(200);
    const loggedOutAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - loggedOutAt < 2_000) {
      status = (await onB(erik, { method: 'GET', url: '/api/login/keepalive' })).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    console.log(`logout on node A refused on node B after ${Date.now() - loggedOutAt} ms`);
    expect(status).toBe(401);
    expect(erik.cookies[SESSION_COOKIE]).toBeTruthy();
    // And stays refused on both.
    expect((await erik.get('/api/login/keepalive')).statusCode).toBe(401);
  });

  it("forgets another node's media connections 15 s (three announcements) after that node last announced them, by the app's clock", async () => {
    // Node B plays a node that announces one connection and is then killed: it never says connectionDestroyed.
    const meetingId = crypto.randomUUID();
    const connection = { connectionId: crypto.randomUUID(), participantId: null, displayName: 'På nod B', feedId: null, screenFeedId: null, hasAudio: true, hasVideo: false, moderator: false, endToEnd: true };
    await nodeB.deps.bus.publish('media-connections', JSON.stringify({ held: { [meetingId]: [{ connection, publish: true }] } }));
    const heard = () => t.app.media.remoteConnectionIds(meetingId);
    await expect.poll(heard, { timeout: 2_000 }).toEqual([connection.connectionId]);
    // Node A ages the others' connections when it announces its own (every 5 s of real time), by its injected clock:
    // still counted just before the stated time, however often it announces meanwhile ...
    t.clock.advance(14_000);
    await new Promise((r) => setTimeout(r, 5_500));
    expect(heard()).toEqual([connection.connectionId]);
    // ... and forgotten once the clock has passed it, long before 15 s of real time.
    t.clock.advance(1_000);
    await expect.poll(heard, { timeout: 6_000, interval: 100 }).toEqual([]);
  }, 20_000);
});
