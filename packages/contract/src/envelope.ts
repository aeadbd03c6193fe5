import { Type, type TSchema } from 'typebox';

/** Every request body and response payload travels as `{ data }` (spec §7). */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data });
