import { useId } from 'react';
import { useTexts } from './use-texts.ts';
import { chooseLanguageNow, useLanguageState } from './language-store.ts';
import { directionOf, isLanguageCode, nameOf } from './languages.ts';

/**
 * The language choice in the header of the screens an external person meets. Each language is named in itself
 * (and marked with its `lang`), so a reader finds theirs without reading the current one.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t } = useTexts();
  const { chosen, offered } = useLanguageState();
  const id = useId();
  if (offered.length < 2) return null;
  return (
    <div className={['language-switcher', className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>
        {/* A drawn globe: an emoji needs a colour-emoji font, which not every system has. */}
        <svg className="language-switcher__icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <g fill="none" stroke="currentColor" strokeWidth="2">
            <circle cx="12" cy="12" r="9" />
            <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
          </g>
        </svg>{' '}
        <span className="language-switcher__text">{t('language.label')}</span>
      </label>
      <select
        id={id}
        value={chosen}
        onChange={(e) => {
          if (isLanguageCode(e.target.value)) chooseLanguageNow(e.target.value);
        }}
      >
        {offered.map((code) => (
          <option key={code} value={code} lang={code} dir={directionOf(code)}>
            {nameOf(code)}
          </option>
        ))}
      </select>
    </div>
  );
}
