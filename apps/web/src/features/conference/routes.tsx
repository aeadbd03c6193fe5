import type { RouteObject } from 'react-router';

// The meeting screen and its two sub-routes (spec §2). janus.js and webrtc-adapter load only with the page: as soon
// as the route is chosen, alongside the page's own chunk, the user and gettoken, not after gettoken has answered.
export const conferenceRoutes: RouteObject[] = [
  {
    path: 'meetings/:id/conference',
    lazy: () => {
      void import('./media/media-session.ts').then((m) => m.preloadMediaLibrary());
      return import('./pages/conference-page.tsx').then((m) => ({ Component: m.ConferencePage }));
    },
  },
  { path: 'meetings/:id/conference/publicaccess/:roomid?', lazy: () => import('./pages/public-access-guard-page.tsx').then((m) => ({ Component: m.PublicAccessGuardPage })) },
  { path: 'meetings/:id/conference/publicaccessend', lazy: () => import('./pages/public-access-end-page.tsx').then((m) => ({ Component: m.ConferenceEndedPage })) },
];
