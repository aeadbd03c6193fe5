import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { flatten, interpolate, Translator } from './translator.ts';
import { withComponents } from './trans.tsx';

const sv = { a: { hello: 'Hej {{name}}', minutes_one: '{{count}} minut', minutes_other: '{{count}} minuter' }, only: 'bara svenska' };
const ar = { a: { hello: 'مرحبا {{name}}', minutes_zero: 'لا دقائق', minutes_one: 'دقيقة واحدة', minutes_two: 'دقيقتان', minutes_few: '{{count}} دقائق', minutes_many: '{{count}} دقيقة', minutes_other: '{{count}} دقيقة' } };

// The keys below are not the app's catalogue's, so the typed key is set aside.
const t = (tr: Translator, key: string, values?: Record<string, string | number>) => tr.t(key as never, values);

describe('Translator', () => {
  it('fills placeholders, leaving one without a value empty', () => {
    expect(interpolate('Hej {{name}}, {{ other }}!', { name: 'Erik' })).toBe('Hej Erik, !');
    expect(t(new Translator('sv', { sv }), 'a.hello', { name: 'Jonna' })).toBe('Hej Jonna');
  });

  it('chooses the plural form by the language’s rules and falls back to _other', () => {
    const tr = new Translator('sv', { sv, ar });
    expect([1, 2].map((count) => t(tr, 'a.minutes', { count }))).toEqual(['1 minut', '2 minuter']);
    tr.changeLanguage('ar');
    expect([0, 1, 2, 5, 11, 100].map((count) => t(tr, 'a.minutes', { count }))).toEqual(['لا دقائق', 'دقيقة واحدة', 'دقيقتان', '5 دقائق', '11 دقيقة', '100 دقيقة']);
    expect(t(new Translator('sv', { sv: { m_other: '{{count}} st' } }), 'm', { count: 1 })).toBe('1 st');
  });

  it('falls back to the fallback language, then to the key itself', () => {
    const tr = new Translator('sv', { sv, ar });
    tr.changeLanguage('ar');
    expect(t(tr, 'only')).toBe('bara svenska');
    expect(t(tr, 'no.such.key')).toBe('no.such.key');
    tr.changeLanguage('en'); // not loaded: the fallback's texts show
    expect(t(tr, 'a.hello', { name: 'x' })).toBe('Hej x');
  });

  it('tells its listeners of every change, with a new version and new fixed functions', () => {
    const tr = new Translator('sv', { sv });
    let calls = 0;
    const stop = tr.subscribe(() => calls++);
    const [v0, fixed] = [tr.version(), tr.getFixedT('sv')];
    expect(tr.getFixedT('sv')).toBe(fixed);
    tr.addCatalogue('ar', ar);
    tr.changeLanguage('ar');
    tr.changeLanguage('ar'); // no change
    expect(calls).toBe(2);
    expect(tr.version()).not.toBe(v0);
    expect(tr.getFixedT('sv')).not.toBe(fixed);
    stop();
    tr.changeLanguage('sv');
    expect(calls).toBe(2);
  });

  it('flattens a catalogue to dotted keys', () => {
    expect([...flatten(sv).keys()]).toEqual(['a.hello', 'a.minutes_one', 'a.minutes_other', 'only']);
  });
});

describe('withComponents', () => {
  it('puts each tag’s text into its component and keeps a tag without one as text', () => {
    const html = renderToStaticMarkup(<>{withComponents('Läs <anchor>mer</anchor> och <x>här</x>.', { anchor: <a href="/p" /> })}</>);
    expect(html).toBe('Läs <a href="/p">mer</a> och här.');
  });
});
