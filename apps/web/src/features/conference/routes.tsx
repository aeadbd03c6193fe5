import type { RouteObject } from 'react-router';

export const conferenceRoutes: RouteObject[] = [
  { path: 'meetings/:id/conference', lazy: () => import('./pages/conference-page.tsx').then((m) => ({ Component: m.ConferencePage })) },
];
