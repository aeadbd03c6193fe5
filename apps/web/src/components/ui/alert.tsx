import type { ReactNode } from 'react';

export type AlertVariant = 'error' | 'warning' | 'info' | 'success';

// Drawn, not font glyphs: a symbol such as ⛔ exists only in emoji fonts and shows as an empty box without one.
const ICON_PATHS: Record<AlertVariant, ReactNode> = {
  error: (
    <>
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path d="M8 8l8 8M16 8l-8 8" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
    </>
  ),
  warning: (
    <>
      <path d="M12 2.5L22.5 21h-21z" fill="currentColor" />
      <path d="M12 9v5.5" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <circle cx="12" cy="17.8" r="1.4" fill="#fff" />
    </>
  ),
  info: (
    <>
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path d="M12 11v6" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <circle cx="12" cy="7.3" r="1.5" fill="#fff" />
    </>
  ),
  success: (
    <>
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path d="M7 12.5l3.2 3.2L17 9" stroke="#fff" strokeWidth="2.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
};

export interface AlertProps {
  variant?: AlertVariant;
  title?: ReactNode;
  children?: ReactNode;
  /** Errors and warnings interrupt a screen reader (role alert); the rest are polite (role status). Override here. */
  live?: 'alert' | 'status' | 'none';
  /** Shows a close button. */
  onClose?: () => void;
  className?: string;
}

export function Alert({ variant = 'info', title, children, live, onClose, className }: AlertProps) {
  const role = live ?? (variant === 'error' || variant === 'warning' ? 'alert' : 'status');
  return (
    <div className={['ui-alert', `ui-alert--${variant}`, className].filter(Boolean).join(' ')} role={role === 'none' ? undefined : role}>
      <svg className="ui-alert__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        {ICON_PATHS[variant]}
      </svg>
      <div className="ui-alert__body">
        {title && <p className="ui-alert__title">{title}</p>}
        {children}
      </div>
      {onClose && (
        <button type="button" className="ui-alert__close" onClick={onClose} aria-label="Stäng meddelandet">
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}

/** A failure in words as an error alert, or nothing while there is none. */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert variant="error">
      <p>{message}</p>
    </Alert>
  );
}
