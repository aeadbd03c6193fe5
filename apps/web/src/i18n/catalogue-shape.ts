import type { Catalogue } from './catalogues/sv.ts';

/**
 * What a translated catalogue may hold: the Swedish catalogue's keys (a misspelt key is a type error), every text
 * optional so that a missing one falls back to Swedish at run time, and the plural forms its own language needs
 * (Arabic has six: `_zero`, `_one`, `_two`, `_few`, `_many`, `_other`). `catalogues.test.ts` requires every key.
 */
export type Translation<T = Catalogue> = {
  [K in keyof T]?: T[K] extends string ? string : Translation<T[K]>;
} & { [pluralKey: `${string}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}`]: string | undefined };
