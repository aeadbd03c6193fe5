import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom. */
  actions?: ReactNode;
  /** Escape (and a close button, when `closeLabel` is set) call this; without it the dialog can't be dismissed. */
  onClose?: () => void;
  /** Adds an × button with this accessible name. */
  closeLabel?: string;
  /** 'alertdialog' for dialogs that demand an answer (warnings, confirmations). Mark the control that should
   * get focus first with `data-autofocus` (React's autoFocus runs before showModal and is overridden). */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  /** The dialog's own language and direction, when it is not the page's (the rating dialog after a call). */
  lang?: string;
  dir?: 'ltr' | 'rtl';
}

/**
 * A modal dialog on the native `<dialog>` element: the browser traps focus, makes the page behind inert and
 * handles Escape. Focus returns to where it was when the dialog closes.
 */
export function Dialog({ open, title, children, actions, onClose, closeLabel, role = 'dialog', className, lang, dir }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `d${useId().replace(/:/g, '')}`;
  const returnFocus = useRef<Element | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocus.current = document.activeElement;
      dialog.showModal();
      // showModal() focuses the first focusable element; a dialog may name a safer default (`data-autofocus`).
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      if (returnFocus.current instanceof HTMLElement && returnFocus.current.isConnected) returnFocus.current.focus();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={['ui-dialog', className].filter(Boolean).join(' ')}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      lang={lang}
      dir={dir}
      aria-modal="true"
      onCancel={(event) => {
        // Escape: the owner decides; a dialog without onClose stays open.
        event.preventDefault();
        onClose?.();
      }}
    >
      {open && (
        <>
          <div className="ui-dialog__header">
            <h2 id={titleId} className="ui-dialog__title">
              {title}
            </h2>
            {onClose && closeLabel && (
              <button type="button" className="ui-dialog__close" onClick={onClose} aria-label={closeLabel}>
                <span aria-hidden="true">×</span>
              </button>
            )}
          </div>
          <div className="ui-dialog__body">{children}</div>
          {actions && <div className="ui-dialog__actions">{actions}</div>}
        </>
      )}
    </dialog>
  );
}
