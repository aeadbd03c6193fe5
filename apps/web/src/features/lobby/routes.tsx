import type { RouteObject } from 'react-router';

export const lobbyRoutes: RouteObject[] = [
  { path: 'meetings/:id/lobby', lazy: () => import('./pages/lobby-page.tsx').then((m) => ({ Component: m.LobbyPage })) },
];
