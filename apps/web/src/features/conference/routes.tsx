import type { RouteObject } from 'react-router';
import { requestTokenEarly } from '../../lib/media-token.ts';
import { loadClientConfig } from '../../lib/client-config.ts';

// The meeting screen and its two sub-routes (spec §2). janus.js loads only with the page: as soon as the route is
// chosen, alongside the page's own chunk, the user and gettoken, not after gettoken has answered; gettoken and the
// client configuration are asked for then too, and the loader starts the call's media (it waits only for that code,
// which the page's HTML already names for preloading).
export const conferenceRoutes: RouteObject[] = [
  {
    path: 'meetings/:id/conference',
    loader: async ({ params }) => {
      if (!params.id) return null;
      requestTokenEarly(params.id);
      void loadClientConfig().catch(() => {});
      // The call's media start as soon as gettoken answers, not after the screen's first render (call-start.ts).
      const { EarlyCall } = await import('./media/call-start.ts');
      return new EarlyCall(params.id);
    },
    shouldRevalidate: ({ currentParams, nextParams }) => currentParams.id !== nextParams.id,
    lazy: () => {
      void import('./media/media-session.ts').then((m) => m.prepareMedia());
      return import('./pages/conference-page.tsx').then((m) => ({ Component: m.ConferencePage }));
    },
  },
  { path: 'meetings/:id/conference/publicaccess/:roomid?', lazy: () => import('./pages/public-access-guard-page.tsx').then((m) => ({ Component: m.PublicAccessGuardPage })) },
  { path: 'meetings/:id/conference/publicaccessend', lazy: () => import('./pages/public-access-end-page.tsx').then((m) => ({ Component: m.ConferenceEndedPage })) },
];
