import type { InputHTMLAttributes } from 'react';
import { Field, type FieldProps } from './field.tsx';
import { DATE_HINT, TIME_HINT, parseDateTimeText, type DateTimeKind } from './date-time-text.ts';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange' | 'inputMode'>;

export interface DateTimeInputProps extends InputProps {
  kind: DateTimeKind;
  /** yyyy-MM-dd or HH:mm once readable; otherwise the text as typed. */
  value: string;
  onValueChange(value: string): void;
}

/**
 * A text input for a yyyy-MM-dd date or an HH:mm time (see date-time-text.ts for why not type="date"). Leaving the
 * field rewrites what it can read into the canonical form; what it cannot read stays for the form's validation.
 */
export function DateTimeInput({ kind, value, onValueChange, onBlur, className, ...input }: DateTimeInputProps) {
  return (
    <input
      type="text"
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      className={['ui-date-time', `ui-date-time--${kind}`, className].filter(Boolean).join(' ')}
      {...input}
      value={value}
      onChange={(e) => onValueChange(e.target.value)}
      onBlur={(e) => {
        const canonical = parseDateTimeText(kind, e.target.value);
        if (canonical && canonical !== e.target.value) onValueChange(canonical);
        onBlur?.(e);
      }}
    />
  );
}

export const dateTimeHint = (kind: DateTimeKind) => (kind === 'date' ? DATE_HINT : TIME_HINT);

type DateTimeFieldProps = Omit<FieldProps, 'children' | 'hint'> & Omit<DateTimeInputProps, 'id'>;

/** Label, the visible format hint ('åååå-mm-dd' / 'tt:mm') and error around a DateTimeInput. */
export function DateTimeField({ label, error, required, id, className, kind, ...input }: DateTimeFieldProps) {
  return (
    <Field label={label} hint={dateTimeHint(kind)} error={error} required={required} id={id} className={className}>
      {(control) => <DateTimeInput kind={kind} className="ui-input" {...input} {...control} />}
    </Field>
  );
}
