import type { ReactNode } from 'react';

export type AlertVariant = 'error' | 'warning' | 'info' | 'success';

const ICONS: Record<AlertVariant, string> = { error: '⛔', warning: '⚠', info: 'ℹ', success: '✓' };

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
      <span className="ui-alert__icon" aria-hidden="true">
        {ICONS[variant]}
      </span>
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
