import { useId } from 'react';
import { TEXTS } from '../model/texts.ts';
import { usePopover } from './use-popover.ts';

/** 'Fungerar det inte?' with advice and a 'Ladda om sidan' button (spec §2 Help popover). */
export function HelpPopover() {
  const { open, setOpen, root, toggle } = usePopover();
  const id = useId();
  return (
    <div className="help" ref={root}>
      <button ref={toggle} type="button" className="help__toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
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
