import type { FirstScreen } from '@videomote/contract/first-screens';
import { chooseLanguage, DEFAULT_LANGUAGE, type LanguageCode } from '@videomote/contract/languages';

/** A path pattern of the build as a regular expression over a request's URL (with or without a trailing slash, query or fragment). */
export function firstScreenPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/?#]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?([?#]|$)`);
}

/** An Accept-Language header's language tags, the most preferred first (q=0 means not at all). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
}

/**
 * The first screen to put into a page's HTML: the one built for its path, unless the page is an external screen and
 * the browser asks for a language we offer before Swedish: that person's first screen is drawn by the app in their
 * language (the built ones are Swedish, and a Swedish screen replaced by another would move everything).
 * (Someone who picked another language in the app's switcher, which only their browser remembers, still sees the
 * Swedish screen until the app has started.)
 */
export function firstScreenFor(
  screens: readonly (FirstScreen & { pattern: RegExp })[],
  url: string,
  acceptLanguage: string | undefined,
  offered: readonly LanguageCode[],
): FirstScreen | null {
  const screen = screens.find((s) => s.pattern.test(url));
  if (!screen) return null;
  if (screen.external && chooseLanguage({ stored: null, browser: acceptedLanguages(acceptLanguage), enabled: offered }) !== DEFAULT_LANGUAGE) return null;
  return screen;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * index.html with `markup` inside its (empty) root element, and the page's title. The first screen is inert: shown,
 * but nothing in it can be clicked, focused or typed into until the app has replaced it (a click on a button with no
 * code behind it yet would be lost, and so would text typed into a field the app then draws anew). Its scripts are
 * then not needed for the first paint: they are fetched at low priority, after the styles (a browser fetches
 * scripts, and module preloads, ahead of most else, and Lighthouse's simulation counts what was so fetched before
 * the first paint as needed for it). Not so behind a `loading` screen, which is there only until they have run.
 */
export function withFirstScreen(html: string, markup: string, title: string, { loading = false } = {}): string {
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error('index.html has no empty <div id="root"></div>');
  const page = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(title)}</title>`).replace(root, () => `<div id="root"><div data-first-screen inert>${markup}</div></div>`);
  // A loading screen is only there until the scripts have run: they keep their priority.
  return loading ? page : page.replace(/<(script type="module"|link rel="modulepreload") /g, '<$1 fetchpriority="low" ');
}
