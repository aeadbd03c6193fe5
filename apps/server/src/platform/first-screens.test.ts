import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '@videomote/contract/languages';
import { acceptedLanguages, firstScreenFor, firstScreenPattern, withFirstScreen } from './first-screens.ts';

const screen = (path: string, external: boolean) => ({ path, title: 'Videomöte', html: `<p>${path}</p>`, htmlWithCookieNotice: '', external, pattern: firstScreenPattern(path) });
const screens = [screen('/personaldata', true), screen('/meetings', false), screen('/meetings/:meetingId/lobby', true)];

describe('first screens', () => {
  it("match their page's path with any value in a :name segment, a trailing slash, a query or a fragment", () => {
    const lobby = firstScreenPattern('/meetings/:meetingId/lobby');
    expect(['/meetings/abc-1/lobby', '/meetings/abc/lobby/', '/meetings/abc/lobby?x=1', '/meetings/abc/lobby#top'].every((u) => lobby.test(u))).toBe(true);
    expect(['/meetings/abc/lobbyx', '/meetings//lobby', '/meetings/a/b/lobby', '/x/meetings/a/lobby'].some((u) => lobby.test(u))).toBe(false);
    expect(firstScreenFor(screens, '/meetings', undefined, LANGUAGE_CODES)?.path).toBe('/meetings');
    expect(firstScreenFor(screens, '/meetings/new', undefined, LANGUAGE_CODES)).toBeNull();
    expect(firstScreenFor(screens, '/meetings/42/lobby', undefined, LANGUAGE_CODES)?.path).toBe('/meetings/:meetingId/lobby');
  });

  it("read Accept-Language by preference, without what the browser refuses (q=0) or any language ('*')", () => {
    expect(acceptedLanguages('sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7')).toEqual(['sv-SE', 'sv', 'en-US', 'en']);
    expect(acceptedLanguages('en;q=0.5, ar-SE , so;q=0.9')).toEqual(['ar-SE', 'so', 'en']);
    expect(acceptedLanguages('*, sv;q=0, en;q=0.1')).toEqual(['en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('are sent on an external screen only to a browser that would be shown it in Swedish; staff screens are always Swedish', () => {
    expect(firstScreenFor(screens, '/personaldata', 'sv-SE,sv;q=0.9,en;q=0.8', LANGUAGE_CODES)).not.toBeNull();
    expect(firstScreenFor(screens, '/personaldata', 'de-DE,de;q=0.9', LANGUAGE_CODES)).not.toBeNull();
    expect(firstScreenFor(screens, '/personaldata', 'ar-SE,ar;q=0.9,sv;q=0.8', LANGUAGE_CODES)).toBeNull();
    // A language the operator does not offer is not shown: that browser sees Swedish.
    expect(firstScreenFor(screens, '/personaldata', 'ar-SE', ['sv', 'en'])).not.toBeNull();
    expect(firstScreenFor(screens, '/meetings', 'en-GB', LANGUAGE_CODES)).not.toBeNull();
  });

  it("go inside the page's empty root element as they are, inert until the app replaces them, with the page's title", () => {
    const page = '<head><title>Videomöte</title></head><body><div id="root"></div></body>';
    expect(withFirstScreen(page, '<p>$& a</p>', 'Videomöte - Frågor & <svar>')).toBe('<head><title>Videomöte - Frågor &amp; &lt;svar></title></head><body><div id="root"><div data-first-screen inert><p>$& a</p></div></div></body>');
    expect(() => withFirstScreen('<body></body>', '<p></p>', 'x')).toThrow(/root/);
    // The scripts wait for the styles: the first screen does not need them.
    const scripts = '<head><script type="module" async src="/a.js"></script><link rel="modulepreload" href="/b.js"><link rel="stylesheet" href="/c.css"></head><div id="root"></div>';
    expect(withFirstScreen(scripts, '', 'x')).toBe('<head><script type="module" fetchpriority="low" async src="/a.js"></script><link rel="modulepreload" fetchpriority="low" href="/b.js"><link rel="stylesheet" href="/c.css"></head><div id="root"><div data-first-screen inert></div></div>');
    // Behind a loading screen the page waits for its scripts: they keep their priority.
    expect(withFirstScreen(scripts, '<p>…</p>', 'x', { loading: true })).toBe('<head><script type="module" async src="/a.js"></script><link rel="modulepreload" href="/b.js"><link rel="stylesheet" href="/c.css"></head><div id="root"><div data-first-screen inert><p>…</p></div></div>');
  });
});
