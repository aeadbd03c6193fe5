import type { Catalogue } from './catalogues/sv.ts';

/**
 * The app's texts by language: a dotted key (`lobby.join`) looked up in the screen's language, then in the fallback
 * language; `{{name}}` placeholders filled in; a text with a count chosen by the language's own plural rules
 * (`minutes_one`, `minutes_other`; Arabic has six forms), as Intl.PluralRules names them. That is all the catalogues
 * use, so this replaces i18next and react-i18next, 21 of the 147 KB (gzip) of script every page loaded before its
 * first screen works, and whose lookups (5-12 µs each) the call's screen had to cache.
 */

type Tree = { readonly [key: string]: string | Tree | undefined };

/** Intl.PluralRules' names for the plural forms. */
type PluralForm = Intl.LDMLPluralRule;

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
type WithoutPluralForm<K extends string> = K extends `${infer Base}_${PluralForm}` ? Base : K;

/** Every key of the Swedish catalogue, a plural text by its name without the form (`session.minutes`). */
export type TextKey = WithoutPluralForm<Leaves<Catalogue>>;

/** The values of a text's placeholders; `count` also chooses its plural form. */
export type TextValues = Readonly<Record<string, string | number>>;

export type Translate = (key: TextKey, values?: TextValues) => string;

/** Every text of a catalogue by its dotted key. */
export function flatten(tree: object, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree as Tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into.set(path, value);
    else if (value) flatten(value, path, into);
  }
  return into;
}

/** `{{name}}` replaced by its value; a placeholder without one is left empty, as i18next did. */
export const interpolate = (text: string, values: TextValues | undefined): string =>
  text.includes('{{') ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values?.[name] ?? '')) : text;

export class Translator {
  private readonly texts = new Map<string, Map<string, string>>();
  private readonly plurals = new Map<string, Intl.PluralRules>();
  private readonly fixed = new Map<string, Translate>();
  private readonly listeners = new Set<() => void>();
  private changes = 0;
  language: string;

  constructor(
    private readonly fallback: string,
    catalogues: Readonly<Record<string, object>> = {},
  ) {
    this.language = fallback;
    for (const [language, catalogue] of Object.entries(catalogues)) this.texts.set(language, flatten(catalogue));
  }

  /** A text in the language shown now. */
  readonly t: Translate = (key, values) => this.translate(this.language, key, values);

  /** The texts of one language, whatever the screen's (the same function each time until a catalogue changes). */
  getFixedT(language: string): Translate {
    let t = this.fixed.get(language);
    if (!t) {
      t = (key, values) => this.translate(language, key, values);
      this.fixed.set(language, t);
    }
    return t;
  }

  hasLanguage = (language: string): boolean => this.texts.has(language);

  /** Adds (or replaces) a language's catalogue. */
  addCatalogue(language: string, catalogue: object): void {
    this.texts.set(language, flatten(catalogue));
    this.changed();
  }

  /** Shows the screen in `language` from now on; its catalogue should be there (else the fallback's texts show). */
  changeLanguage(language: string): void {
    if (language === this.language) return;
    this.language = language;
    this.changed();
  }

  /** Called after every change of language or catalogue, for React to render the texts again. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Counts the changes of language and catalogue (React's snapshot of this store). */
  version = (): number => this.changes;

  private translate(language: string, key: string, values?: TextValues): string {
    const text = this.lookup(language, key, values?.count) ?? (language === this.fallback ? undefined : this.lookup(this.fallback, key, values?.count));
    return text === undefined ? key : interpolate(text, values);
  }

  /** A text of one language, its plural form chosen by `count` (then `_other`, then the key without a form). */
  private lookup(language: string, key: string, count: unknown): string | undefined {
    const texts = this.texts.get(language);
    if (!texts) return undefined;
    if (typeof count !== 'number') return texts.get(key);
    return texts.get(`${key}_${this.pluralForm(language, count)}`) ?? texts.get(`${key}_other`) ?? texts.get(key);
  }

  private pluralForm(language: string, count: number): string {
    let rules = this.plurals.get(language);
    if (!rules) {
      rules = new Intl.PluralRules(language);
      this.plurals.set(language, rules);
    }
    return rules.select(count);
  }

  private changed(): void {
    this.changes++;
    this.fixed.clear();
    for (const listener of this.listeners) listener();
  }
}
