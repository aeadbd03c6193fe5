import type { RouteObject } from 'react-router';

export const infoRoutes: RouteObject[] = [
  { path: 'personaldata', lazy: () => import('./pages/personal-data-page.tsx').then((m) => ({ Component: m.PersonalDataPage })) },
  { path: 'accessability', lazy: () => import('./pages/accessibility-page.tsx').then((m) => ({ Component: m.AccessibilityPage })) },
  { path: 'usersupport/*', lazy: () => import('./pages/user-support-page.tsx').then((m) => ({ Component: m.UserSupportPage })) },
];
