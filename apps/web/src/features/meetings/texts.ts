/** The home page's own texts for failures (booking spec §4 errors: shown as a general error with a reset action). */
export const HOME_TEXTS = {
  todayFailed: 'Det gick inte att hämta dagens möten',
  weeksFailed: 'Det gick inte att hämta dina veckor med möten',
  weekFailed: (week: number) => `Det gick inte att hämta mötena för vecka ${week}`,
  retry: 'Försök igen',
  deleteFailed: 'Det gick inte att ta bort mötet.',
} as const;
