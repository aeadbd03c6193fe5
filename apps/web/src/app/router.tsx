import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Shell } from './shell.tsx';
import { sessionRoutes } from '../features/session/routes.tsx';
import { infoRoutes } from '../features/info/routes.tsx';
import { meetingsRoutes } from '../features/meetings/routes.tsx';
import { lobbyRoutes } from '../features/lobby/routes.tsx';
import { signupRoutes } from '../features/signup/routes.tsx';
import { publicAccessRoutes } from '../features/public-access/routes.tsx';
import { conferenceRoutes } from '../features/conference/routes.tsx';
import { adminRoutes } from '../features/admin/routes.tsx';
// Plugs the chat and participants panels into the meeting screen (features do not import each other).
import './conference-panels.tsx';

/** The route table of booking spec §2 and conference spec §2, composed from each feature's own routes. */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      { index: true, element: <Navigate to="/meetings" replace /> },
      ...meetingsRoutes,
      ...lobbyRoutes,
      ...signupRoutes,
      ...publicAccessRoutes,
      ...adminRoutes,
      ...infoRoutes,
      ...sessionRoutes,
    ],
  },
  // The conference fills the window: no header, menu or footer.
  ...conferenceRoutes,
];

export const router = createBrowserRouter(routes);
