import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => () =>
  load().then((m) => ({ Component: m[name] }));

/** /admin and its subpages (booking spec §2), all behind the admin guard in AdminLayout. */
export const adminRoutes: RouteObject[] = [
  {
    path: 'admin',
    lazy: page(() => import('./components/admin-layout.tsx'), 'AdminLayout'),
    children: [
      { index: true, lazy: page(() => import('./pages/admin-page.tsx'), 'AdminPage') },
      { path: 'groups', lazy: page(() => import('./pages/groups-page.tsx'), 'GroupsPage') },
      { path: 'appsettings', lazy: page(() => import('./pages/app-settings-page.tsx'), 'AppSettingsPage') },
      { path: 'statistik', lazy: page(() => import('./pages/statistics-page.tsx'), 'StatisticsPage') },
      { path: 'felsokning', lazy: page(() => import('./pages/troubleshooting-page.tsx'), 'TroubleshootingPage') },
      {
        path: 'systemmeddelanden',
        lazy: page(() => import('./components/messages-section.tsx'), 'MessagesSection'),
        children: [
          { index: true, lazy: page(() => import('./pages/messages-page.tsx'), 'MessagesPage') },
          { path: 'new', lazy: page(() => import('./pages/message-form-page.tsx'), 'MessageFormPage') },
          { path: ':id/edit', lazy: page(() => import('./pages/message-form-page.tsx'), 'MessageFormPage') },
        ],
      },
      { path: '*', lazy: page(() => import('./pages/admin-page.tsx'), 'AdminNotFound') },
    ],
  },
];
