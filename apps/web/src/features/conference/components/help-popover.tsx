import { useEffect, useId, useRef, useState } from 'react';
import { TEXTS } from '../model/texts.ts';

/** 'Fungerar det inte?' with advice and a 'Ladda om sidan' button (spec §2 Help popover). */
export function HelpPopover() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    const onClick = (e: MouseEvent) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);
  return (
    <div className="help" ref={root}>
      <button type="button" className="help__toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {TEXTS.helpTitle}
      </button>
      {open && (
        <div id={id} className="help__popover" role="dialog" aria-label={TEXTS.helpTitle}>
          <p className="help__question">{TEXTS.helpQuestion}</p>
          <p>{TEXTS.helpAdvice}</p>
          <button type="button" onClick={() => window.location.reload()}>
            {TEXTS.reload}
          </button>
        </div>
      )}
    </div>
  );
}
