import { useEffect, useRef, useState } from 'react';

/**
 * The open state of a popover beside its toggle button: Escape or a press outside closes it. Escape with focus inside
 * hands focus back to the toggle: the popover unmounting would drop it to <body>, and keyboard users lose their place.
 * Put `root` on the element holding toggle and popover, and `toggle` on the button.
 */
export function usePopover() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      if (root.current?.contains(document.activeElement)) toggle.current?.focus();
      setOpen(false);
    };
    const onClick = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);
  return { open, setOpen, root, toggle };
}
