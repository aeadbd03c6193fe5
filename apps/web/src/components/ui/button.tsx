import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'tertiary' | 'danger';

/** The class a button-looking element takes; also for a router `<Link>` that should look like a button. */
export const buttonClass = (variant: ButtonVariant = 'primary', extra?: string) =>
  ['ui-button', `ui-button--${variant}`, extra].filter(Boolean).join(' ');

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Shows a busy state and blocks repeated clicks while an action runs. */
  busy?: boolean;
}

/** A real `<button>` (type="button" unless told otherwise, so it never submits a form by accident). */
export function Button({ variant = 'primary', busy = false, className, type = 'button', disabled, children, ...rest }: ButtonProps) {
  return (
    <button {...rest} type={type} className={buttonClass(variant, className)} disabled={disabled || busy} aria-busy={busy || undefined}>
      {children}
    </button>
  );
}
