import type { RouteObject } from 'react-router';

export const adminRoutes: RouteObject[] = [
  { path: 'admin/*', lazy: () => import('./pages/admin-page.tsx').then((m) => ({ Component: m.AdminPage })) },
];
