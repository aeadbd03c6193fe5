import type { Translation } from '../catalogue-shape.ts';

export const ti = {} satisfies Translation;
