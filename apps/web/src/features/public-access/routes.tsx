import type { RouteObject } from 'react-router';

export const publicAccessRoutes: RouteObject[] = [
  { path: 'publicaccess/:roomid', lazy: () => import('./pages/public-access-page.tsx').then((m) => ({ Component: m.PublicAccessPage })) },
  { path: 'publicaccessend', lazy: () => import('./pages/public-access-end-page.tsx').then((m) => ({ Component: m.PublicAccessEndPage })) },
];
