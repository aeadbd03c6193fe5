import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { Envelope } from '@videomote/contract/envelope';
import { ErrorBody } from '@videomote/contract/errors';

/**
 * The app with handler types taken from each route's schemas (params, querystring, body and response), so a
 * handler cannot read a field the schema does not declare nor answer one it does not promise.
 */
export const typed = (app: FastifyInstance) => app.withTypeProvider<TypeBoxTypeProvider>();

/** Every failure of every route carries the spec's error shape (booking spec §8), from platform/http-errors.ts. */
const failures = { '4xx': ErrorBody, '5xx': ErrorBody } as const;

/**
 * The responses of a JSON route: `{ data }` on success and the error shape otherwise. Serialisation follows the
 * schema, so a field the contract does not declare (a keyed hash, a secret) never leaves, even by accident.
 */
export function answers<T extends TSchema>(data: T) {
  return { 200: Envelope(data), ...failures };
}

/** As answers(), for a route that creates something (201). */
export function created<T extends TSchema>(data: T) {
  return { 201: Envelope(data), ...failures };
}

/** A route that answers with a file (the calendar, the statistics CSV) instead of JSON. */
export function file(mediaType: string, description: string) {
  return { 200: { description, content: { [mediaType]: { schema: Type.String() } } }, ...failures };
}

/** A route that answers with a redirect (the login steps). */
export function redirect(description: string) {
  return { 302: Type.Null({ description }), ...failures };
}

