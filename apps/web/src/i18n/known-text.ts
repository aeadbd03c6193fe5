import type { TFunction } from 'i18next';
import { sv } from './catalogues/sv.ts';

type Tree = { [key: string]: string | Tree };

/** Every Swedish text of the catalogue → its key. Texts with placeholders never arrive whole, so they are left out. */
function indexTexts(tree: Tree, prefix: string, into: Map<string, string>): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value !== 'string') indexTexts(value, path, into);
    else if (!value.includes('{{') && !into.has(value)) into.set(value, path);
  }
  return into;
}

const SWEDISH = indexTexts(sv as unknown as Tree, '', new Map());

/**
 * A Swedish text made elsewhere, in the person's language: the server's error messages and the rules' messages
 * (both come from the contract, as the Swedish catalogue's do) are recognised by their exact Swedish wording. A
 * text we do not know, e.g. a system message an administrator wrote, is shown as it is.
 */
export function knownText(t: TFunction, text: string): string {
  const key = SWEDISH.get(text);
  return key ? (t as unknown as (k: string) => string)(key) : text;
}
