import { useCallback, useRef, useState } from 'react';

/** The element's content box, kept up to date by a ResizeObserver (rotation, side panel, window resize). */
export function useElementSize<T extends HTMLElement>(): [(el: T | null) => void, { width: number; height: number } | null] {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el) return;
    observer.current = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      setSize((s) => (s && s.width === width && s.height === height ? s : { width, height }));
    });
    observer.current.observe(el);
  }, []);
  return [ref, size];
}
