import { LANGUAGES, type LanguageCode, type TextDirection } from '@videomote/contract/languages';

export { DEFAULT_LANGUAGE, LANGUAGE_CODES, isLanguageCode, type LanguageCode } from '@videomote/contract/languages';

export const directionOf = (code: LanguageCode): TextDirection => LANGUAGES.find((l) => l.code === code)?.dir ?? 'ltr';

export const nameOf = (code: LanguageCode): string => LANGUAGES.find((l) => l.code === code)?.name ?? code;
