import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from './languages.ts';

/**
 * Which language a person's screens are shown in: the one they chose in this browser, else on the first visit the
 * first of the browser's own languages (`navigator.languages`, e.g. `ar-SE`, `so`) that we have, else Swedish.
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
