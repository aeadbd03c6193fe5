import { describe, expect, it } from 'vitest';
import { chooseLanguage, isExternalScreen, offeredLanguages, screenLanguage } from './language-choice.ts';

const ALL = ['sv', 'en', 'ar', 'so', 'ti'] as const;

describe('chooseLanguage', () => {
  it('keeps the language chosen in this browser', () => {
    expect(chooseLanguage({ stored: 'ti', browser: ['en-GB'], enabled: ALL })).toBe('ti');
  });
  it('offers the browser’s own language on the first visit, by its primary subtag', () => {
    expect(chooseLanguage({ stored: null, browser: ['ar-SE', 'sv'], enabled: ALL })).toBe('ar');
    expect(chooseLanguage({ stored: null, browser: ['de-DE', 'so'], enabled: ALL })).toBe('so');
    expect(chooseLanguage({ stored: null, browser: ['TI-ER'], enabled: ALL })).toBe('ti');
  });
  it('falls back to Swedish for a browser language we do not have', () => {
    expect(chooseLanguage({ stored: null, browser: ['fa-IR', 'de'], enabled: ALL })).toBe('sv');
    expect(chooseLanguage({ stored: 'xx', browser: [], enabled: ALL })).toBe('sv');
  });
  it('uses no language the operator switched off, stored or from the browser', () => {
    expect(chooseLanguage({ stored: 'ar', browser: ['ar'], enabled: ['sv', 'en'] })).toBe('sv');
    expect(chooseLanguage({ stored: 'ar', browser: ['ar', 'en-US'], enabled: ['sv', 'en'] })).toBe('en');
    expect(chooseLanguage({ stored: 'sv', browser: ['ar'], enabled: ['sv'] })).toBe('sv');
  });
});

describe('isExternalScreen', () => {
  it('holds the screens an external person meets', () => {
    for (const path of [
      '/meetings/4f1c/lobby',
      '/meetings/4f1c/signup',
      '/meetings/4f1c/conference',
      '/meetings/4f1c/conference/publicaccess',
      '/publicaccess/AbCd',
      '/publicaccessend',
      '/personaldata',
      '/accessability',
      '/usersupport',
      '/usersupport/troubleshooting',
      '/logged-out',
      '/error',
    ]) expect({ path, external: isExternalScreen(path) }).toEqual({ path, external: true });
  });
  it('leaves the staff screens in Swedish', () => {
    for (const path of ['/', '/meetings', '/meetings/new', '/meetings/4f1c/edit', '/meetings/4f1c/copy', '/meetings/4f1c/saved', '/admin', '/admin/systemmeddelanden', '/admin/tillganglighet', '/personaldataX']) {
      expect({ path, external: isExternalScreen(path) }).toEqual({ path, external: false });
    }
    expect(screenLanguage('/meetings/new', 'ar')).toBe('sv');
    expect(screenLanguage('/meetings/4f1c/lobby', 'ar')).toBe('ar');
  });
});

describe('offeredLanguages', () => {
  it('keeps known codes, Swedish always first and once', () => {
    expect(offeredLanguages(['en', 'sv', 'xx', 'ar', 'en'])).toEqual(['sv', 'en', 'ar']);
    expect(offeredLanguages(undefined)).toEqual(['sv']);
  });
});
