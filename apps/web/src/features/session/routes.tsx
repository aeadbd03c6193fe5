import type { RouteObject } from 'react-router';

export const sessionRoutes: RouteObject[] = [
  { path: 'logged-out', lazy: () => import('./pages/logged-out-page.tsx').then((m) => ({ Component: m.LoggedOutPage })) },
  { path: 'error', lazy: () => import('./pages/error-page.tsx').then((m) => ({ Component: m.ErrorPage })) },
  { path: '*', lazy: () => import('./pages/error-page.tsx').then((m) => ({ Component: m.NotFoundPage })) },
];
