import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Trans } from './trans.tsx';
import { LANGUAGE_CODES } from './languages.ts';
import { flatten, type TextKey } from './translator.ts';
import { i18n, loadLanguage } from './i18n.ts';
import { sv } from './catalogues/sv.ts';

/**
 * Texts with links (`<anchor>…</anchor>`) render their link text in every language. A tag named like an HTML void
 * element (`<link>`) once rendered as an empty link: the parser gives void elements no children.
 */
describe('texts with links', () => {
  const withTags = [...flatten(sv)].filter(([, text]) => /<\w+>/.test(text)).map(([key]) => key);
  beforeAll(() => Promise.all(LANGUAGE_CODES.map(loadLanguage)));

  it('are there to check', () => {
    expect(withTags.length).toBeGreaterThanOrEqual(4);
  });

  for (const language of LANGUAGE_CODES) {
    it(`render every link with its text in ${language}`, () => {
      const t = i18n.getFixedT(language);
      for (const key of withTags) {
        const tags = [...flatten(sv).get(key)!.matchAll(/<(\w+)>/g)].map((m) => m[1]!);
        const components = Object.fromEntries(tags.map((tag) => [tag, <a href={`#${tag}`} />]));
        const html = renderToStaticMarkup(<Trans t={t} i18nKey={key as TextKey} values={{ email: 'x@example.se' }} components={components} />);
        const links = [...html.matchAll(/<a href="#\w+">([^<]*)<\/a>/g)].map((m) => m[1]!.trim());
        expect({ key, language, links: links.length }).toEqual({ key, language, links: tags.length });
        for (const text of links) expect({ key, language, text: text.length > 0 }).toEqual({ key, language, text: true });
      }
    });
  }
});
