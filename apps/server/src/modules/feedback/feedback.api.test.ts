import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/use-test-app.ts';

const t = useTestApp();

describe('accessibility reports', () => {
  it('anyone may report, admins read them newest first, by reporter kind only', async () => {
    const anon = t.anonymous();
    const first = await anon.post('/api/feedback/accessibility', { description: '  Knappen Fortsätt går inte att nå med tangentbordet  ', pageUrl: '/meetings' });
    expect(first.statusCode).toBe(201);
    expect(first.json().data.id).toMatch(/^[0-9a-f-]{36}$/);
    t.clock.advance(1000);
    const jonna = await t.as('jonna');
    expect((await jonna.post('/api/feedback/accessibility', { description: 'Låg kontrast i sidfoten', contact: 'jonna@example.se' })).statusCode).toBe(201);

    const anna = await t.as('anna');
    const list = await anna.get('/api/feedback/accessibility');
    expect(list.statusCode).toBe(200);
    const data = list.json().data;
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ description: 'Låg kontrast i sidfoten', contact: 'jonna@example.se', pageUrl: null, reporterKind: 'eid' });
    expect(data[1]).toMatchObject({ description: 'Knappen Fortsätt går inte att nå med tangentbordet', pageUrl: '/meetings', contact: null, reporterKind: 'none' });
    expect(JSON.stringify(data)).not.toContain('199001012385');
  });

  it('only admins may read the reports', async () => {
    expect((await t.anonymous().get('/api/feedback/accessibility')).statusCode).toBe(401);
    expect((await (await t.as('erik')).get('/api/feedback/accessibility')).statusCode).toBe(403);
    expect((await (await t.as('jonna')).get('/api/feedback/accessibility')).statusCode).toBe(403);
  });

  it('refuses an empty or too long report with Swedish field errors', async () => {
    const c = t.anonymous();
    const empty = await c.post('/api/feedback/accessibility', { description: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ name: 'ValidationError', errors: [{ fields: ['description'], message: 'Du behöver beskriva problemet' }] });
    const long = await c.post('/api/feedback/accessibility', { description: 'x'.repeat(4001), contact: 'y'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual([
      { fields: ['description'], message: 'Beskrivningen får vara högst 4000 tecken' },
      { fields: ['contact'], message: 'Kontaktuppgiften får vara högst 200 tecken' },
    ]);
    const garbage = await c.request({ method: 'POST', url: '/api/feedback/accessibility', payload: { data: { description: { html: '<b>' } } } });
    expect(garbage.statusCode).toBe(400);
    const noEnvelope = await c.request({ method: 'POST', url: '/api/feedback/accessibility', payload: 'not json', headers: { 'content-type': 'application/json' } });
    expect(noEnvelope.statusCode).toBe(400);
  });

  it('needs the anti-forgery header like every mutating call', async () => {
    const res = await t.anonymous().request({ method: 'POST', url: '/api/feedback/accessibility', headers: { 'x-xsrf-token': '' }, payload: { data: { description: 'x' } } });
    expect(res.statusCode).toBe(403);
  });
});
