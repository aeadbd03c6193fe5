import { afterEach, describe, expect, it } from 'vitest';
import { i18n, loadLanguage } from './i18n.ts';
import { screenTexts } from './screen-text.ts';
import { sv } from './catalogues/sv.ts';
import { en } from './catalogues/en.ts';

const CONTROLS = screenTexts('conference.controls', sv.conference.controls);

describe('screenTexts', () => {
  afterEach(() => i18n.changeLanguage('sv'));

  it('reads each text in the language shown now, also after a language change', async () => {
    expect(CONTROLS.hangUp).toBe(sv.conference.controls.hangUp);
    await loadLanguage('en');
    i18n.changeLanguage('en');
    expect(CONTROLS.hangUp).toBe(en.conference.controls.hangUp);
    i18n.changeLanguage('sv');
    expect(CONTROLS.hangUp).toBe(sv.conference.controls.hangUp);
  });

  it('reads a text anew once its catalogue has changed (a text read before the catalogue arrived is not kept)', () => {
    const before = CONTROLS.leave;
    i18n.addCatalogue('sv', { ...sv, conference: { ...sv.conference, controls: { ...sv.conference.controls, leave: 'Gå ut nu' } } });
    try {
      expect(CONTROLS.leave).toBe('Gå ut nu');
    } finally {
      i18n.addCatalogue('sv', sv);
    }
    expect(CONTROLS.leave).toBe(before);
  });
});
