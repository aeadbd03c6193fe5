import type { Translation } from '../catalogue-shape.ts';

export const so = {} satisfies Translation;
