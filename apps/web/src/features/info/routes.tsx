import type { RouteObject } from 'react-router';

const supportPages = () => import('./pages/user-support-page.tsx');

export const infoRoutes: RouteObject[] = [
  { path: 'personaldata', lazy: () => import('./pages/personal-data-page.tsx').then((m) => ({ Component: m.PersonalDataPage })) },
  // Lazily loaded, as booking spec §2 asks.
  { path: 'accessability', lazy: () => import('./pages/accessibility-page.tsx').then((m) => ({ Component: m.AccessibilityPage })) },
  // Under /admin for the admins, but this feature's page: the reports come from the accessibility statement.
  { path: 'admin/tillganglighet', lazy: () => import('./pages/accessibility-reports-page.tsx').then((m) => ({ Component: m.AccessibilityReportsPage })) },
  {
    path: 'usersupport',
    children: [
      { index: true, lazy: () => supportPages().then((m) => ({ Component: m.UserSupportPage })) },
      { path: 'troubleshooting', lazy: () => supportPages().then((m) => ({ Component: m.TroubleshootingPage })) },
      { path: 'whatisavideomeeting', lazy: () => supportPages().then((m) => ({ Component: m.WhatIsAVideoMeetingPage })) },
    ],
  },
];
