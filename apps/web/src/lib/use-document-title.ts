import { useEffect } from 'react';

export const DEFAULT_TITLE = 'Videomöte';

/** Page titles are set per route (booking spec §2); the default is the word for video meeting. */
export function useDocumentTitle(title: string = DEFAULT_TITLE): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
