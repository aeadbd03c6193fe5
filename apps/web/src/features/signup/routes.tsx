import type { RouteObject } from 'react-router';

export const signupRoutes: RouteObject[] = [
  { path: 'meetings/:id/signup', lazy: () => import('./pages/signup-page.tsx').then((m) => ({ Component: m.SignupPage })) },
];
