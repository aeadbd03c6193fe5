import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import { TestSystemBanner } from './app/test-system-banner.tsx';
import { askUserAtStartUp, SessionProvider } from './features/session/session-context.tsx';
import { ensureAntiforgery } from './lib/api-client.ts';
import './styles/global.css';

void ensureAntiforgery();
askUserAtStartUp();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <TestSystemBanner />
      <RouterProvider router={router} />
    </SessionProvider>
  </StrictMode>,
);
