/**
 * The languages the screens an external person meets can be shown in, besides Swedish (the default, and the only
 * language of the staff screens). `name` is the language's own name (what the switcher and the invitations show,
 * so a reader finds theirs without reading Swedish); `swedishName` is for Swedish sentences; `dir` is the
 * document's direction: Arabic right to left, Somali (Latin script) and Tigrinya (Ge'ez script) left to right.
 */
export const LANGUAGES = [
  { code: 'sv', name: 'Svenska', swedishName: 'svenska', dir: 'ltr' },
  { code: 'en', name: 'English', swedishName: 'engelska', dir: 'ltr' },
  { code: 'ar', name: 'العربية', swedishName: 'arabiska', dir: 'rtl' },
  { code: 'so', name: 'Soomaali', swedishName: 'somaliska', dir: 'ltr' },
  { code: 'ti', name: 'ትግርኛ', swedishName: 'tigrinja', dir: 'ltr' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export type TextDirection = 'ltr' | 'rtl';

export const DEFAULT_LANGUAGE: LanguageCode = 'sv';
export const LANGUAGE_CODES: readonly LanguageCode[] = LANGUAGES.map((l) => l.code);

export const isLanguageCode = (value: unknown): value is LanguageCode => typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value);

/**
 * `WEB_LANGUAGES` read: a comma-separated list of the codes offered (Swedish is always offered and need not be
 * listed); `sv` alone switches every other language off. Null when it names a language we do not have.
 */
export function parseOfferedLanguages(value: string | undefined): LanguageCode[] | null {
  if (value === undefined || value.trim() === '') return [...LANGUAGE_CODES];
  const codes = value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (!codes.every(isLanguageCode)) return null;
  return [DEFAULT_LANGUAGE, ...new Set(codes.filter((c) => c !== DEFAULT_LANGUAGE))];
}

/**
 * Which language a person's screens are shown in: the one they chose in this browser, else on the first visit the
 * first of the browser's own languages (`navigator.languages`, or Accept-Language on the server: e.g. `ar-SE`, `so`) that we
 * have, else Swedish.
 * Only languages the operator offers count (`enabled`, from the server's configuration); Swedish always does.
 */
export function chooseLanguage(o: { stored: string | null; browser: readonly string[]; enabled: readonly LanguageCode[] }): LanguageCode {
  const offered = (code: string): code is LanguageCode => isLanguageCode(code) && (code === DEFAULT_LANGUAGE || o.enabled.includes(code));
  if (o.stored !== null && offered(o.stored)) return o.stored;
  for (const tag of o.browser) {
    // The primary subtag: 'ar-SE' and 'ar' both mean Arabic; 'ti-ER' Tigrinya.
    const primary = tag.toLowerCase().split('-')[0] ?? '';
    if (offered(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}
