import type { Translation } from '../catalogue-shape.ts';

export const en = {} satisfies Translation;
