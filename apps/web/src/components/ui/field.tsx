import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

/** What a form control needs to be tied to its label, hint and error. */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
  'aria-required'?: true;
}

export interface FieldProps {
  label: ReactNode;
  /** Shown under the label and read with the control. */
  hint?: ReactNode;
  /** Shown in red, read with the control, and marks it invalid. */
  error?: ReactNode;
  required?: boolean;
  /** A fixed id (error summaries link to it); generated when absent. */
  id?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/** Label, hint and error around any control, wired for screen readers (WCAG 1.3.1, 3.3.1, 3.3.2). */
export function Field({ label, hint, error, required, id, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? `f${generated.replace(/:/g, '')}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['ui-field', error ? 'ui-field--invalid' : '', className].filter(Boolean).join(' ')}>
      <label className="ui-field__label" htmlFor={controlId}>
        {label}
      </label>
      {hint && (
        <span className="ui-field__hint" id={hintId}>
          {hint}
        </span>
      )}
      {error && (
        <span className="ui-field__error" id={errorId}>
          {error}
        </span>
      )}
      {children({
        id: controlId,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
        'aria-required': required ? true : undefined,
      })}
    </div>
  );
}

type TextFieldProps = Omit<FieldProps, 'children'> & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>;

export function TextField({ label, hint, error, required, id, className, ...input }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} required={required} id={id} className={className}>
      {(control) => <input className="ui-input" {...input} {...control} />}
    </Field>
  );
}

type TextAreaFieldProps = Omit<FieldProps, 'children'> & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>;

export function TextAreaField({ label, hint, error, required, id, className, ...textarea }: TextAreaFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} required={required} id={id} className={className}>
      {(control) => <textarea className="ui-input ui-textarea" {...textarea} {...control} />}
    </Field>
  );
}
