import { useId } from 'react';

export const SIGNUP_SETTING_TEXTS = {
  heading: 'Självregistrering',
  label: 'Tillåt självregistrering via länk',
  hint: (type: 0 | 1) =>
    `Den som får länken kan logga in med e-legitimation och lägga till sig själv som ${type === 1 ? 'presentatör' : 'deltagare'}, ` +
    'men blir aldrig administratör. Du hittar länken under Möteslänkar när mötet är sparat, och kan byta den eller stänga av registreringen när du vill.',
  removeHint: 'Personen har registrerat sig själv. Byt länk för självregistrering under Möteslänkar om personen inte ska kunna registrera sig igen.',
} as const;

/** The meeting admin's choice whether people may add themselves by the sign-up link (off unless ticked). */
export function SignupSetting({ type, checked, onChange }: { type: 0 | 1; checked: boolean; onChange(checked: boolean): void }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{SIGNUP_SETTING_TEXTS.heading}</h2>
      <div className="vm-field">
        <div className="vm-check vm-check--top">
          <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={`${id}-hint`} />
          <label htmlFor={id}>{SIGNUP_SETTING_TEXTS.label}</label>
        </div>
        <span id={`${id}-hint`} className="vm-field__hint">
          {SIGNUP_SETTING_TEXTS.hint(type)}
        </span>
      </div>
    </section>
  );
}
