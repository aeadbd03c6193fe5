import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES, type LanguageCode } from './languages.ts';
import { catalogueProblems } from './catalogue-check.ts';
import { flatten, Translator } from './translator.ts';
import { i18n, loadLanguage } from './i18n.ts';
import { sv } from './catalogues/sv.ts';
import { en } from './catalogues/en.ts';
import { ar } from './catalogues/ar.ts';
import { so } from './catalogues/so.ts';
import { ti } from './catalogues/ti.ts';

const TRANSLATIONS: Record<Exclude<LanguageCode, 'sv'>, object> = { en, ar, so, ti };

describe('the message catalogues', () => {
  it('exist for every language we offer', () => {
    expect(Object.keys(TRANSLATIONS).sort()).toEqual(LANGUAGE_CODES.filter((c) => c !== 'sv').sort());
  });

  for (const [language, catalogue] of Object.entries(TRANSLATIONS) as [Exclude<LanguageCode, 'sv'>, object][]) {
    it(`${language} has every Swedish key, in all its plural forms, with the same placeholders and links, and nothing else`, () => {
      expect(catalogueProblems(sv, catalogue, language)).toEqual([]);
    });
  }

  it('flags a catalogue with a key missing, a key too many, a lost placeholder and a lacking Arabic plural form', () => {
    const broken = structuredClone(ar) as unknown as { lobby: Record<string, string>; session: Record<string, unknown>; nonsense?: string };
    delete broken.lobby.join;
    broken.nonsense = 'x';
    broken.session.errorCode = 'رمز الخطأ';
    delete broken.session.minutes_few;
    expect(catalogueProblems(sv, broken, 'ar')).toEqual(
      expect.arrayContaining([
        { key: 'lobby.join', problem: 'missing' },
        { key: 'nonsense', problem: 'unknown' },
        { key: 'session.errorCode', problem: 'markers' },
        { key: 'session.minutes_few', problem: 'missing' },
      ]),
    );
  });

  it('falls back to Swedish for a key a language lacks', () => {
    const partial = structuredClone(en) as unknown as { lobby: Record<string, string> };
    delete partial.lobby.join;
    const instance = new Translator('sv', { sv, en: partial });
    instance.changeLanguage('en');
    expect(instance.t('lobby.join')).toBe('Anslut till mötet');
    expect(instance.t('lobby.back')).toBe('Back to the start page');
  });

  it('are fetched when a language is first shown, Swedish alone being bundled', async () => {
    expect(LANGUAGE_CODES.filter((code) => i18n.hasLanguage(code))).toEqual(['sv']);
    await Promise.all(LANGUAGE_CODES.map(loadLanguage));
    expect(LANGUAGE_CODES.filter((code) => i18n.hasLanguage(code))).toEqual([...LANGUAGE_CODES]);
    expect(i18n.getFixedT('en')('lobby.join')).toBe(en.lobby.join);
  });

  it('chooses plural forms by the language’s own rules, Arabic’s six included', async () => {
    await Promise.all([loadLanguage('ar'), loadLanguage('en')]);
    const ar = i18n.getFixedT('ar');
    expect([0, 1, 2, 3, 11, 100].map((count) => ar('session.minutes', { count }))).toEqual([
      '0 دقيقة',
      'دقيقة واحدة',
      'دقيقتان',
      '3 دقائق',
      '11 دقيقة',
      '100 دقيقة',
    ]);
    expect(i18n.getFixedT('sv')('session.minutes', { count: 1 })).toBe('1 minut');
    expect(i18n.getFixedT('sv')('session.minutes', { count: 5 })).toBe('5 minuter');
    expect(i18n.getFixedT('en')('session.minutes', { count: 5 })).toBe('5 minutes');
  });

  it('holds no Swedish text in another catalogue except names (a copied text would pass the key check unread)', () => {
    const swedish = new Set([...flatten(sv).values()]);
    // Words that are the same in Swedish and English.
    const allowed = new Set(['Videomöte - {{page}}', '{{n}} {{label}}', '{{name}}: {{text}}', 'Version {{version}}', 'Information', 'Video', 'moderator']);
    for (const [language, catalogue] of Object.entries(TRANSLATIONS)) {
      const copied = [...flatten(catalogue)].filter(([, text]) => swedish.has(text) && !allowed.has(text)).map(([key]) => key);
      expect({ language, copied }).toEqual({ language, copied: [] });
    }
  });
});
