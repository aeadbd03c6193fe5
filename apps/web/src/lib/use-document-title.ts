import { useEffect } from 'react';

export const DEFAULT_TITLE = 'Videomöte';

/** The title the last page rendered at build time asked for (first-screens.tsx, where effects do not run). */
export const renderedTitle = { value: DEFAULT_TITLE };

/** Page titles are set per route (booking spec §2); the default is the word for video meeting. */
export function useDocumentTitle(title: string = DEFAULT_TITLE): void {
  if (import.meta.env.SSR) renderedTitle.value = title;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
