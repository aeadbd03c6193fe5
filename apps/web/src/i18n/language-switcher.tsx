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
        <span className="language-switcher__icon" aria-hidden="true">
          🌐
        </span>{' '}
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
