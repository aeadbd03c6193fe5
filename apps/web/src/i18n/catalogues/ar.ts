import type { Translation } from '../catalogue-shape.ts';

export const ar = {} satisfies Translation;
