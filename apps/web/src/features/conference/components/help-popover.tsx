import { useId } from 'react';
import { HELP_TEXTS } from '../model/texts.ts';
import { usePopover } from './use-popover.ts';

/** 'Fungerar det inte?' with advice and a 'Ladda om sidan' button (spec §2 Help popover). */
export function HelpPopover() {
  const { open, setOpen, root, toggle } = usePopover();
  const id = useId();
  return (
    <div className="help" ref={root}>
      <button ref={toggle} type="button" className="help__toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {HELP_TEXTS.helpTitle}
      </button>
      {open && (
        <div id={id} className="help__popover" role="dialog" aria-label={HELP_TEXTS.helpTitle}>
          <p className="help__question">{HELP_TEXTS.helpQuestion}</p>
          <p>{HELP_TEXTS.helpAdvice}</p>
          <button type="button" onClick={() => window.location.reload()}>
            {HELP_TEXTS.reload}
          </button>
        </div>
      )}
    </div>
  );
}
