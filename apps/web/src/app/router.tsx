import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Shell } from './shell.tsx';
import { LoadingSpinner } from '../components/ui/loading-spinner.tsx';
import { sessionRoutes } from '../features/session/routes.tsx';
import { infoRoutes } from '../features/info/routes.tsx';
import { meetingsRoutes } from '../features/meetings/routes.tsx';
import { lobbyRoutes } from '../features/lobby/routes.tsx';
import { signupRoutes } from '../features/signup/routes.tsx';
import { publicAccessRoutes } from '../features/public-access/routes.tsx';
import { conferenceRoutes } from '../features/conference/routes.tsx';
import { adminRoutes } from '../features/admin/routes.tsx';
import { reloadOnChunkError } from '../lib/chunk-reload.ts';
import { RouteError } from './route-error.tsx';
import { LanguageScope } from './language-scope.tsx';
import { i18n } from '../i18n/i18n.ts';
// Plugs the chat and participants panels into the meeting screen (features do not import each other).
import './conference-panels.tsx';

// Shown while the first page's code (a lazy route) loads, instead of a blank window.
const AppLoading = () => <LoadingSpinner label={i18n.t('common.loadingApp')} />;

/**
 * Someone in the lobby is about to enter the call: once the lobby has had a moment to show, the meeting screen's code
 * and janus.js are fetched and made ready in the background, so that entering waits for no download (seconds on a
 * weak mobile link) and less evaluating. Not webrtc-adapter: it patches the browser's WebRTC as it loads, which the
 * lobby's own connection check should not meet; the meeting screen loads it itself. janus.js only defines itself as
 * it loads (its Janus.init, at the call, is what takes the adapter).
 */
const CONFERENCE_WARM_UP_AFTER_MS = 1_500;
const warmingUpConference = (routes: RouteObject[]): RouteObject[] =>
  routes.map((route) => ({
    ...route,
    loader: () => {
      setTimeout(() => {
        void import('../features/conference/pages/conference-page.tsx').catch(() => {});
        void import('../features/conference/media/media-session.ts').then((m) => m.prefetchJanus(), () => {});
      }, CONFERENCE_WARM_UP_AFTER_MS);
      return null;
    },
  }));

/** The route table of booking spec §2 and conference spec §2, composed from each feature's own routes. */
export const routes: RouteObject[] = [
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
      { HydrateFallback: AppLoading, errorElement: <RouteError />, children: conferenceRoutes },
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

export const router = createBrowserRouter(reloadOnStaleChunks(routes));
