import { Type, type Static, type TSchema } from 'typebox';

/** Every request body and response payload travels as `{ data }` (spec §7). */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ data });

/** The answer of a call that stores or deletes one thing and has nothing more to tell than which. */
export const IdReference = Type.Object({ id: Type.String() });
export type IdReference = Static<typeof IdReference>;
