import type { RouteObject } from 'react-router';

export const meetingsRoutes: RouteObject[] = [
  { path: 'meetings', lazy: () => import('./pages/home-page.tsx').then((m) => ({ Component: m.HomePage })) },
];
