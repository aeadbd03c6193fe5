import { Navigate, type RouteObject } from 'react-router';
import { Shell } from './shell.tsx';
import { LoadingSpinner } from '../components/ui/loading-spinner.tsx';
import { sessionRoutes } from '../features/session/routes.tsx';
import { infoRoutes } from '../features/info/routes.tsx';
import { meetingsRoutes } from '../features/meetings/routes.tsx';
import { lobbyRoutes } from '../features/lobby/routes.tsx';
import { signupRoutes } from '../features/signup/routes.tsx';
import { publicAccessRoutes } from '../features/public-access/routes.tsx';
import { conferenceRoutes, downloadConference, warmUpConference } from '../features/conference/routes.tsx';
import { adminRoutes } from '../features/admin/routes.tsx';
import { reloadOnChunkError } from '../lib/chunk-reload.ts';
import { afterLoadWhenIdle } from '../lib/after-load-idle.ts';
import { joinIntent } from '../lib/join-intent.ts';
import { RouteError } from './route-error.tsx';
import { LanguageScope } from './language-scope.tsx';
import { i18n } from '../i18n/i18n.ts';

// Shown while the first page's code (a lazy route) loads, instead of a blank window; and from the HTML on a page
// whose first content cannot come with it (first-screens.tsx).
export const AppLoading = () => <LoadingSpinner label={i18n.t('common.loadingApp')} />;

/**
 * Someone in the lobby is about to enter the call. Once the lobby has loaded and shown and the phone is idle
 * (lib/after-load-idle.ts: not while the lobby itself is still being drawn), the meeting screen's code and janus.js
 * are downloaded, so that entering waits for no download (seconds on a weak mobile link). They are run, and the
 * encryption worker started, when the person shows they are about to join (lib/join-intent.ts: pointer or focus on
 * the consent form), not before: running them is a long task on a phone while the person may be trying the device
 * test (under Lighthouse it also kept the page busy seconds longer: docs/benchmarks-lighthouse.md, third round).
 * (One who leaves instead keeps the downloaded code in the cache: it holds nothing.)
 */
const CONFERENCE_DOWNLOAD = { delayMs: 1_500, idleTimeoutMs: 3_000 };
const warmingUpConference = (routes: RouteObject[]): RouteObject[] =>
  routes.map((route) => ({
    ...route,
    loader: () => {
      afterLoadWhenIdle(() => downloadConference(), CONFERENCE_DOWNLOAD);
      joinIntent.whenShown(() => {
        warmUpConference();
        void import('./conference-panels.tsx').catch(() => {});
      });
      return null;
    },
  }));

/**
 * The meeting screen's chat, participants and captions panels (conference-panels.tsx, which plugs them into its
 * slots: features do not import each other) load with its page, not in the app's bundle that every page parses.
 */
const withConferencePanels = (list: RouteObject[]): RouteObject[] =>
  list.map((route) => {
    const lazy = route.lazy;
    if (typeof lazy !== 'function') return route;
    return { ...route, lazy: () => Promise.all([import('./conference-panels.tsx'), lazy()]).then(([, page]) => page) } as RouteObject;
  });

/** The route table of booking spec §2 and conference spec §2, composed from each feature's own routes. */
const routes: RouteObject[] = [
  {
    // Every screen: the external ones in the person's language, the staff ones in Swedish.
    element: <LanguageScope />,
    HydrateFallback: AppLoading,
    errorElement: <RouteError />,
    children: [
      {
        element: <Shell />,
        HydrateFallback: AppLoading,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="/meetings" replace /> },
          ...meetingsRoutes,
          ...warmingUpConference(lobbyRoutes),
          ...signupRoutes,
          ...publicAccessRoutes,
          ...adminRoutes,
          ...infoRoutes,
          ...sessionRoutes,
        ],
      },
      // The conference fills the window: no header, menu or footer.
      { HydrateFallback: AppLoading, errorElement: <RouteError />, children: withConferencePanels(conferenceRoutes) },
    ],
  },
];

/** Every lazy page of the table reloads the app once when its code is gone after a deploy (lib/chunk-reload.ts). */
function reloadOnStaleChunks(list: RouteObject[]): RouteObject[] {
  return list.map((route) => {
    const lazy = typeof route.lazy === 'function' ? { lazy: reloadOnChunkError(route.lazy) } : {};
    return route.children ? { ...route, ...lazy, children: reloadOnStaleChunks(route.children) } : ({ ...route, ...lazy } as RouteObject);
  });
}

/** The app's routes: created into the browser's router by main.tsx, rendered at build time by first-screens.tsx. */
export const appRoutes = reloadOnStaleChunks(routes);
