import { sv } from './catalogues/sv.ts';
import { flatten, type TextKey, type Translate } from './translator.ts';

/**
 * Every Swedish text of the catalogue → its key, made at the first use rather than as the app starts. Texts with
 * placeholders never arrive whole, so they are left out.
 */
let swedish: Map<string, string> | null = null;
function swedishKeys(): Map<string, string> {
  if (!swedish) {
    swedish = new Map();
    for (const [key, text] of flatten(sv)) if (!text.includes('{{') && !swedish.has(text)) swedish.set(text, key);
  }
  return swedish;
}

/**
 * A Swedish text made elsewhere, in the person's language: the server's error messages and the rules' messages
 * (both come from the contract, as the Swedish catalogue's do) are recognised by their exact Swedish wording. A
 * text we do not know, e.g. a system message an administrator wrote, is shown as it is.
 */
export function knownText(t: Translate, text: string): string {
  const key = swedishKeys().get(text);
  return key ? t(key as TextKey) : text;
}
