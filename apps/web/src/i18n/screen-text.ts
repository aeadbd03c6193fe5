import { i18n } from './i18n.ts';
import type { TextKey } from './translator.ts';

/**
 * A text in the language the screen is shown in now, for code outside React (the call's model, media and the
 * texts modules their constants live in). Read it when it is shown, not when a module loads: the texts modules
 * define their constants as getters over this, so a language change reaches them on the next render.
 */
export const screenText = i18n.t;

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
    Object.fromEntries(plain.map((key) => [key, { enumerable: true, configurable: true, get: () => i18n.t(`${group}.${key}` as TextKey) }])),
  ) as { readonly [K in Exclude<keyof T, keyof F>]: string } & F;
}
