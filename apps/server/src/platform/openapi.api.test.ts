import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Operation = { requestBody?: unknown; parameters?: { in: string }[]; responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }> };

describe('the OpenAPI document at /api/docs', () => {
  it('is valid OpenAPI, describes only the API, and gives every operation its answers and the error shape', async () => {
    const doc = (await t.app.internal.inject('/api/docs')).json();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);

    const paths = Object.keys(doc.paths);
    // The test IdP, the sockets and the web app are not API.
    expect(paths.filter((p) => !p.startsWith('/api/'))).toEqual([]);
    expect(paths).toContain('/api/meeting');
    expect(paths).toContain('/api/meeting/gettoken');

    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        const codes = Object.keys(op.responses);
        const success = codes.filter((c) => /^[23]/.test(c));
        if (!success.length) missing.push(`${where}: no success answer`);
        for (const c of success) if (op.responses[c]!.description === 'Default Response' && !op.responses[c]!.content) missing.push(`${where}: ${c} undocumented`);
        const failure = op.responses['4XX'];
        const errorSchema = failure?.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined;
        if (!errorSchema?.properties?.errors || !errorSchema.properties.message) missing.push(`${where}: no error shape`);
        if (['post', 'put'].includes(method) && !op.requestBody) missing.push(`${where}: no request body`);
      }
    }
    expect(missing).toEqual([]);
  });
});
