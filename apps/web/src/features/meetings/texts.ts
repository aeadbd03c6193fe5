/** The home page's own texts for failures (booking spec §4 errors: shown as a general error with a reset action). */
export const HOME_TEXTS = {
  todayFailed: 'Det gick inte att hämta dagens möten',
  weeksFailed: 'Det gick inte att hämta dina veckor med möten',
  weekFailed: (week: number) => `Det gick inte att hämta mötena för vecka ${week}`,
  retry: 'Försök igen',
  deleteFailed: 'Det gick inte att ta bort mötet.',
  tryLater: 'Försök igen om en stund.',
} as const;

/**
 * What to add after a failure's heading: a server fault's own text ('Något gick fel') says nothing the heading does
 * not, so the advice instead; a refusal (4xx) or a lost connection keeps its own words.
 */
export function failureAdvice(error: Error): string {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 500 ? HOME_TEXTS.tryLater : error.message || HOME_TEXTS.tryLater;
}
