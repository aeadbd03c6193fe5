import type { RouteObject } from 'react-router';

// The meeting screen and its two sub-routes (spec §2). janus.js and webrtc-adapter load only with the page.
export const conferenceRoutes: RouteObject[] = [
  { path: 'meetings/:id/conference', lazy: () => import('./pages/conference-page.tsx').then((m) => ({ Component: m.ConferencePage })) },
  { path: 'meetings/:id/conference/publicaccess/:roomid?', lazy: () => import('./pages/public-access-guard-page.tsx').then((m) => ({ Component: m.PublicAccessGuardPage })) },
  { path: 'meetings/:id/conference/publicaccessend', lazy: () => import('./pages/public-access-end-page.tsx').then((m) => ({ Component: m.ConferenceEndedPage })) },
];
