import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from './languages.ts';

export { chooseLanguage } from '@videomote/contract/languages';

/**
 * The screens an external person meets, which follow the chosen language: lobby, sign-up, public access, the
 * conference, help (user support), errors and logged-out, the personal-data and accessibility pages. Everything
 * else (the meeting lists, the booking form, administration) is staff work and stays Swedish.
 */
export function isExternalScreen(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (/^\/meetings\/[^/]+\/(lobby|signup|conference)(\/|$)/.test(path)) return true;
  return /^\/(publicaccess|publicaccessend|personaldata|accessability|usersupport|logged-out|error)(\/|$)/.test(path);
}

/** The language a screen is shown in: the chosen one on an external screen, Swedish on a staff screen. */
export const screenLanguage = (pathname: string, chosen: LanguageCode): LanguageCode => (isExternalScreen(pathname) ? chosen : DEFAULT_LANGUAGE);

/** `WEB_LANGUAGES` as the server hands it on: known codes only, Swedish always first and always there. */
export function offeredLanguages(configured: readonly string[] | undefined): LanguageCode[] {
  const known = (configured ?? []).filter(isLanguageCode).filter((c) => c !== DEFAULT_LANGUAGE);
  return [DEFAULT_LANGUAGE, ...new Set(known)];
}
