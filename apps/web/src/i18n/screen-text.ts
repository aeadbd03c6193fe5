import { i18n } from './i18n.ts';

/**
 * A text in the language the screen is shown in now, for code outside React (the call's model, media and the
 * texts modules their constants live in). Read it when it is shown, not when a module loads: the texts modules
 * define their constants as getters over this, so a language change reaches them on the next render.
 */
export const screenText = i18n.t.bind(i18n);

/**
 * The plain texts read so far, by language and key. i18next resolves every read afresh (key parsing, fallbacks,
 * interpolation and nesting checks: 5-12 µs each here), and the meeting screen reads some hundred texts per render,
 * many renders a second while a call joins. A catalogue added or removed empties it; a language change needs
 * nothing, as the language is part of the key.
 */
const plainTexts = new Map<string, string>();
i18n.store.on('added', () => plainTexts.clear());
i18n.store.on('removed', () => plainTexts.clear());

function plainText(key: string): string {
  const cacheKey = `${i18n.language}\u0000${key}`;
  let text = plainTexts.get(cacheKey);
  if (text === undefined) {
    text = (i18n.t as unknown as (key: string) => string)(key);
    plainTexts.set(cacheKey, text);
  }
  return text;
}

/**
 * An object whose every property reads `group.key` from the catalogue in the screen's language each time it is
 * read. The keys are the Swedish group's own (`sv.conference.controls`), so a property cannot name a text the
 * catalogue does not have. `extra` adds members of its own (the texts that take a name or a count), which take the
 * place of the plain text of the same key.
 */
export function screenTexts<T extends Record<string, unknown>, F extends Record<string, unknown> = Record<never, never>>(
  group: string,
  swedish: T,
  extra?: F,
): { readonly [K in Exclude<keyof T, keyof F>]: string } & F {
  const plain = Object.keys(swedish).filter((key) => !extra || !(key in extra));
  return Object.defineProperties(
    { ...extra },
    Object.fromEntries(plain.map((key) => [key, { enumerable: true, configurable: true, get: () => plainText(`${group}.${key}`) }])),
  ) as { readonly [K in Exclude<keyof T, keyof F>]: string } & F;
}
