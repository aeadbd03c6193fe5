import { renderToString } from 'react-dom/server';
import type { FirstScreen } from '@videomote/contract/first-screens';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router';
import { AppLoading, appRoutes } from './app/router.tsx';
import { ACCEPT_COOKIES } from './app/cookie-notice.tsx';
import { SessionProvider } from './features/session/session-context.tsx';
import { isExternalScreen } from './i18n/language-choice.ts';
import { DEFAULT_TITLE, renderedTitle } from './lib/use-document-title.ts';

/**
 * The first screens written into the page's HTML at build time (vite.config.ts, `firstScreens`), so that a phone on
 * a slow link paints the page as soon as the HTML and the styles have arrived, not after the app's script has
 * arrived and run (Lighthouse's first and largest contentful paint: docs/benchmarks-lighthouse.md). Each is what
 * the app itself draws first on that page: the visitor's shell, in Swedish, with the page's static texts or the
 * spinner it shows while it asks for its data or for who is signed in. The app replaces it with its own first render
 * (main.tsx: createRoot clears the container), which looks the same, so nothing moves.
 *
 * `:name` segments match any value and are rendered with a placeholder that no screen shows.
 */
export const FIRST_SCREEN_PATHS = [
  '/personaldata',
  '/accessability',
  '/usersupport',
  '/usersupport/troubleshooting',
  '/usersupport/whatisavideomeeting',
  '/publicaccess/:roomId',
  '/meetings',
  '/meetings/new',
  '/meetings/:meetingId/lobby',
] as const;

/**
 * Pages whose first screen is the app's loading spinner: the meeting screen shows its call, which no HTML can
 * carry, and the app keeps the spinner until the call's receiving connection is answered (app/early-start.ts), so
 * the person sees it from the first paint instead of a blank window. It is sent whatever the browser's languages:
 * its one text is the spinner's status, visually hidden, so nothing Swedish shows to someone who reads another.
 */
export const LOADING_SCREEN_PATHS = ['/meetings/:meetingId/conference'] as const;

/** Without the routes' loaders: they start the app's work in the browser (the lobby's warm-up), not markup. */
const withoutLoaders = (routes: RouteObject[]): RouteObject[] =>
  routes.map((r) => ({ ...r, loader: undefined, children: r.children && withoutLoaders(r.children) }) as RouteObject);

export async function renderFirstScreens(): Promise<FirstScreen[]> {
  const handler = createStaticHandler(withoutLoaders(appRoutes));
  const screens: FirstScreen[] = [];
  for (const path of FIRST_SCREEN_PATHS) {
    const url = new URL(path.replace(/:[a-zA-Z]+/g, 'first-screen'), 'http://localhost');
    const render = async (cookie: string) => {
      // What the components read while rendering: this address and the cookies (the notice's acceptance).
      Object.assign(globalThis, { document: { cookie }, window: { location: url } });
      const context = await handler.query(new Request(url));
      if (context instanceof Response) throw new Error(`${path}: the route answers ${context.status}, not a screen`);
      if (context.errors) throw new Error(`${path}: ${JSON.stringify(context.errors)}`);
      renderedTitle.value = DEFAULT_TITLE;
      return renderToString(
        <SessionProvider>
          <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
        </SessionProvider>,
      );
    };
    const html = await render(`${ACCEPT_COOKIES}=true`);
    screens.push({ path, title: renderedTitle.value, html, htmlWithCookieNotice: await render(''), external: isExternalScreen(url.pathname) });
  }
  for (const path of LOADING_SCREEN_PATHS) {
    const html = renderToString(<AppLoading />);
    screens.push({ path, title: DEFAULT_TITLE, html, htmlWithCookieNotice: html, external: false, loading: true });
  }
  return screens;
}
