import type { FastifyInstance } from 'fastify';

/** Every route in the running app as [method, path], read from Fastify's own route tree (HEAD, a mirror of GET, left out). */
export function listRoutes(app: FastifyInstance): [string, string][] {
  const out: [string, string][] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const full = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = full;
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (method !== 'HEAD') out.push([method, full]);
    }
  }
  return out;
}
