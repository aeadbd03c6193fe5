import type { FastifyInstance } from 'fastify';
import type { LiveProbes } from './troubleshoot.ts';

/**
 * Where Felsökning asks the chat and media modules who is connected. Until those modules export something to
 * ask, the page says 'uppgift saknas' rather than guessing.
 */
export function liveProbes(_app: FastifyInstance): LiveProbes {
  return {};
}
