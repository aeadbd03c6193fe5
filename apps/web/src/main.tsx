import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import { SessionProvider } from './features/session/session-context.tsx';
import { ensureAntiforgery } from './lib/api-client.ts';
import './styles/global.css';

void ensureAntiforgery();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  </StrictMode>,
);
