import { describe, expect, it } from 'vitest';
import { MESSAGE_ERRORS } from '@videomote/contract/messages';
import type { TestClient } from '../../testing/test-app.ts';
import { useTestApp } from '../../testing/use-test-app.ts';
import { systemMessageBody } from '../../testing/request-bodies.ts';
import { anonymousSessionUser } from '../identity/session-user.ts';

const t = useTestApp('2026-11-20T09:00:00+01:00');

const valid = systemMessageBody({ value: 'Planerat underhåll i kväll', showInternal: false, showKauser: false });

async function create(data: Record<string, unknown>) {
  const anna = await t.as('anna');
  const res = await anna.post('/api/message', data);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string };
}

const visitor = anonymousSessionUser({ subject: 'anon-1', firstName: 'Besökare', meetingId: null });

describe('GET /api/message (public, by audience)', () => {
  it('shows each persona, an anonymous visitor and a caller without session only the messages for their audience', async () => {
    await create({ ...valid, value: 'Intern', showExternal: false, showInternal: true });
    await create({ ...valid, value: 'Extern', showExternal: true });
    await create({ ...valid, value: 'Leverantör', showExternal: false, showKauser: true });
    await create({ ...valid, value: 'Alla', type: 2, showExternal: true, showInternal: true, showKauser: true });
    const seen = async (client: { get(url: string): Promise<{ statusCode: number; json(): { data: { value: string }[] } }> }) => {
      const res = await client.get('/api/message');
      expect(res.statusCode).toBe(200);
      return res.json().data.map((m) => m.value).sort();
    };
    expect(await seen(await t.as('anna'))).toEqual(['Alla', 'Intern']);
    expect(await seen(await t.as('erik'))).toEqual(['Alla', 'Intern']);
    expect(await seen(await t.as('karin'))).toEqual(['Alla', 'Leverantör']);
    expect(await seen(await t.as('fredrik'))).toEqual(['Alla', 'Leverantör']);
    expect(await seen(await t.as('jonna'))).toEqual(['Alla', 'Extern']);
    expect(await seen(await t.as(visitor))).toEqual(['Alla', 'Extern']);
    expect(await seen(t.anonymous())).toEqual(['Alla', 'Extern']);
  });

  it('lists errors first, then warnings, then infos', async () => {
    await create({ ...valid, type: 0, value: 'info', showInternal: true });
    await create({ ...valid, type: 2, value: 'fel', showInternal: true });
    await create({ ...valid, type: 1, value: 'varning', showInternal: true });
    const res = await (await t.as('erik')).get('/api/message');
    expect(res.json().data.map((m: { type: number }) => m.type)).toEqual([2, 1, 0]);
  });

  it('shows a message only inside its window: from its start, until (not at) its end', async () => {
    await create({ ...valid, startTime: '2026-11-20T10:00:00+01:00', endTime: '2026-11-20T11:00:00+01:00' });
    const jonna = await t.as('jonna');
    const count = async () => (await jonna.get('/api/message')).json().data.length;
    expect(await count()).toBe(0); // 09:00, before
    t.clock.set('2026-11-20T10:00:00+01:00');
    expect(await count()).toBe(1); // at the start
    t.clock.set('2026-11-20T10:59:59+01:00');
    expect(await count()).toBe(1);
    t.clock.set('2026-11-20T11:00:00+01:00');
    expect(await count()).toBe(0); // at the end
  });

  it('answers in the spec shape with ISO times and all flags', async () => {
    const { id } = await create(valid);
    const res = await (await t.as('jonna')).get('/api/message');
    expect(res.json()).toEqual({
      data: [{ id, type: 1, value: valid.value, startTime: '2026-11-20T07:00:00.000Z', endTime: '2026-11-20T17:00:00.000Z', showExternal: true, showInternal: false, showKauser: false, version: 1 }],
    });
  });

  it('polling it is not activity: it neither slides the session nor stamps APILastCall', async () => {
    const erik = await t.as('erik');
    t.clock.advance(30 * 60_000);
    const poll = await erik.get('/api/message');
    expect(poll.statusCode).toBe(200);
    expect(poll.cookies.map((c) => c.name)).not.toContain('APILastCall');
    expect(poll.cookies.map((c) => c.name)).not.toContain('vm_session');
    t.clock.advance(31 * 60_000); // 61 minutes after the login: expired despite the poll
    expect((await erik.get('/api/login/getuserdata')).statusCode).toBe(401);
  });

  it('shows nothing when an administrator switched system messages off', async () => {
    await create(valid);
    const anna = await t.as('anna');
    expect((await anna.put('/api/admin/appsettings/flags', { flags: { systemMessages: false } })).statusCode).toBe(200);
    expect((await t.anonymous().get('/api/message')).json().data).toEqual([]);
  });
});

describe('admin CRUD', () => {
  it('creates, reads, lists, updates (body id and path id) and deletes', async () => {
    const anna = await t.as('anna');
    const { id } = await create(valid);
    expect((await anna.get(`/api/message/${id}`)).json().data).toMatchObject({ id, value: valid.value });
    await create({ ...valid, value: 'Gammalt', startTime: '2026-01-01T08:00:00+01:00', endTime: '2026-01-02T08:00:00+01:00' });
    const all = (await anna.get('/api/message/all')).json().data;
    expect(all.map((m: { value: string }) => m.value)).toEqual([valid.value, 'Gammalt']); // expired ones too, newest first

    const put = await anna.put('/api/message', { ...valid, id, value: 'Ändrad', type: 2, version: 1 });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({ id, value: 'Ändrad', type: 2, version: 2 });
    const putPath = await anna.put(`/api/message/${id}`, { ...valid, value: 'Ändrad igen', version: 2 });
    expect(putPath.json().data).toMatchObject({ value: 'Ändrad igen', version: 3 });

    const del = await anna.delete(`/api/message/${id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ data: { id } });
    expect((await anna.get(`/api/message/${id}`)).statusCode).toBe(404);
    expect((await anna.delete(`/api/message/${id}`)).statusCode).toBe(404);
  });

  it('answers 404 in the spec shape for unknown and malformed ids, and for a path id that contradicts the body', async () => {
    const anna = await t.as('anna');
    const { id } = await create(valid);
    for (const res of [
      await anna.get('/api/message/00000000-0000-4000-8000-000000000000'),
      await anna.get('/api/message/not-a-uuid'),
      await anna.put('/api/message', { ...valid, id: '00000000-0000-4000-8000-000000000000', version: 1 }),
      await anna.put('/api/message', { ...valid, version: 1 }),
      await anna.put(`/api/message/${id}`, { ...valid, id: '00000000-0000-4000-8000-000000000000', version: 1 }),
      await anna.delete('/api/message/xyz'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ name: 'NotFound', message: MESSAGE_ERRORS.notFound, statusCode: 404 });
    }
  });

  it('refuses every admin message route to non-admins (403) and to callers without a session (401)', async () => {
    const { id } = await create(valid);
    const calls = (c: TestClient) => [
      c.get('/api/message/all'),
      c.get(`/api/message/${id}`),
      c.post('/api/message', valid),
      c.put('/api/message', { ...valid, id, version: 1 }),
      c.put(`/api/message/${id}`, { ...valid, version: 1 }),
      c.delete(`/api/message/${id}`),
    ];
    for (const who of ['erik', 'karin', 'fredrik', 'jonna'] as const) {
      for (const res of await Promise.all(calls(await t.as(who)))) expect(res.statusCode, `${who} ${res.body}`).toBe(403);
    }
    for (const res of await Promise.all(calls(await t.as(visitor)))) expect(res.statusCode).toBe(403);
    for (const res of await Promise.all(calls(t.anonymous()))) expect(res.statusCode).toBe(401);
    // Nothing changed.
    expect((await (await t.as('anna')).get(`/api/message/${id}`)).json().data.value).toBe(valid.value);
  });
});

describe('versions: a stale edit is refused, nothing is lost', () => {
  it('of two concurrent updates of the same version exactly one wins; the other gets 409 in the spec shape', async () => {
    const { id } = await create(valid);
    const [a, b] = [await t.as('anna'), await t.as('anna')];
    const results = await Promise.all([
      a.put('/api/message', { ...valid, id, value: 'Från flik A', version: 1 }),
      b.put(`/api/message/${id}`, { ...valid, value: 'Från flik B', version: 1 }),
    ]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)!.json().data;
    const loser = results.find((r) => r.statusCode === 409)!;
    expect(loser.json()).toEqual({ name: 'Conflict', message: MESSAGE_ERRORS.conflict, statusCode: 409 });
    // The stored message is the winner's, at version 2; the loser's text went nowhere.
    const stored = (await a.get(`/api/message/${id}`)).json().data;
    expect(stored).toMatchObject({ value: winner.value, version: 2 });
    // After reloading (version 2) the other admin's edit goes through.
    const retried = await b.put('/api/message', { ...valid, id, value: 'Från flik B igen', version: stored.version });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data).toMatchObject({ value: 'Från flik B igen', version: 3 });
  });

  it('asks for the version: a PUT without one (or a malformed one) is 400 on the version field', async () => {
    const { id } = await create(valid);
    const anna = await t.as('anna');
    for (const version of [undefined, null, '1', 0, 1.5]) {
      const res = await anna.put('/api/message', { ...valid, id, version });
      expect(res.statusCode, String(version)).toBe(400);
      expect(res.json().errors).toEqual([{ fields: ['version'], message: MESSAGE_ERRORS.version }]);
    }
    expect((await anna.get(`/api/message/${id}`)).json().data).toMatchObject({ value: valid.value, version: 1 });
  });
});

describe('validation', () => {
  const post = async (data: unknown) => (await t.as('anna')).post('/api/message', data);

  it('reports every missing field at once, each with its own Swedish message and field', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      name: 'ValidationError',
      message: MESSAGE_ERRORS.type,
      statusCode: 400,
      errors: [
        { fields: ['type'], message: 'Du behöver välja en typ' },
        { fields: ['value'], message: 'Du behöver ange ett meddelande' },
        { fields: ['startTime', 'startDate'], message: 'Du behöver ange en starttid' },
        { fields: ['endTime', 'endDate'], message: 'Du behöver ange en sluttid' },
      ],
    });
  });

  it.each([
    ['type 3', { type: 3 }, ['type'], MESSAGE_ERRORS.type],
    ['type null', { type: null }, ['type'], MESSAGE_ERRORS.type],
    ['blank text', { value: '   ' }, ['value'], MESSAGE_ERRORS.value],
    ['text too long', { value: 'x'.repeat(1001) }, ['value'], MESSAGE_ERRORS.valueTooLong],
    ['start without offset', { startTime: '2026-11-20T08:00' }, ['startTime', 'startDate'], MESSAGE_ERRORS.startTime],
    ['start not a date', { startTime: '2026-13-45T08:00:00Z' }, ['startTime', 'startDate'], MESSAGE_ERRORS.startTime],
    ['end missing', { endTime: '' }, ['endTime', 'endDate'], MESSAGE_ERRORS.endTime],
    ['end equals start', { endTime: valid.startTime }, ['endTime', 'endDate'], MESSAGE_ERRORS.endBeforeStart],
    ['end before start', { endTime: '2026-11-20T07:00:00+01:00' }, ['endTime', 'endDate'], MESSAGE_ERRORS.endBeforeStart],
  ])('%s', async (_name, patch, fields, message) => {
    const res = await post({ ...valid, ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ fields, message }]);
  });

  it('validates updates the same way and keeps the stored message', async () => {
    const { id } = await create(valid);
    const anna = await t.as('anna');
    const res = await anna.put('/api/message', { ...valid, id, value: '', version: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ fields: ['value'], message: MESSAGE_ERRORS.value }]);
    expect((await anna.get(`/api/message/${id}`)).json().data.value).toBe(valid.value);
  });

  it('maps wrong JSON types and a missing envelope to 400, never 500', async () => {
    for (const body of [{ data: { ...valid, type: 'Warn' } }, { data: { ...valid, showExternal: 'ja' } }, { nodata: true }, { data: 'x' }]) {
      const res = await (await t.as('anna')).request({ method: 'POST', url: '/api/message', payload: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().name).toBe('ValidationError');
    }
  });

  it('optional flags default to false', async () => {
    const { type, value, startTime, endTime } = valid;
    const res = await post({ type, value, startTime, endTime });
    expect(res.json().data).toMatchObject({ showExternal: false, showInternal: false, showKauser: false });
  });
});
