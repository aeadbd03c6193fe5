// First: opening a call directly, its media token is asked for before the rest of the app is evaluated.
import './app/early-start.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider, type DataRouter } from 'react-router';
import { appRoutes } from './app/router.tsx';
import { TestSystemBanner } from './app/test-system-banner.tsx';
import { askUserAtStartUp, SessionProvider } from './features/session/session-context.tsx';
import { ensureAntiforgery } from './lib/api-client.ts';
import { hasLanguage, i18n, loadLanguage } from './i18n/i18n.ts';
import { screenLanguage } from './i18n/language-choice.ts';
import { chosenLanguage } from './i18n/language-store.ts';
import './styles/global.css';

void ensureAntiforgery();
askUserAtStartUp();

// As a transition, React renders the first screen in slices and lets the browser in between, instead of one long task
// that blocks input on a slow phone (Lighthouse's Total Blocking Time).
const root = document.getElementById('root')!;
const render = (router: DataRouter) =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <SessionProvider>
          <TestSystemBanner />
          <RouterProvider router={router} />
        </SessionProvider>
      </StrictMode>,
    ),
  );

// Someone whose screens are in another language than Swedish sees the first one in theirs, not Swedish for a moment:
// its texts are fetched first (the app's own code is already running, so this is one small request). Should that
// fail, the screen starts in Swedish. The language is switched before the first render, not by LanguageScope's effect
// after it: the screen was painted in Swedish and then again in the person's language, a layout shift of the page.
const firstLanguage = screenLanguage(window.location.pathname, chosenLanguage());
const start = (router: DataRouter) => {
  if (hasLanguage(firstLanguage) && i18n.language !== firstLanguage) i18n.changeLanguage(firstLanguage);
  render(router);
};
const languageReady = hasLanguage(firstLanguage) ? Promise.resolve() : loadLanguage(firstLanguage).catch(() => {});

// A page whose first screen came with the HTML (first-screens.tsx) keeps it until the router has its page's code:
// rendered before, the app would replace it with the loading spinner, then the page again.
const pageReady = (router: DataRouter) =>
  new Promise<void>((resolve) => {
    if (!root.hasChildNodes() || router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });

// The router is made a task after the bundle's evaluation, not in it: its history, route table and first match are
// 20-45 ms of main thread here, several times that on a phone, which made that task the page's longest. (A timer, not
// a top-level await: with one, the build splits early-start into several chunks, fetched and run before the first paint.)
setTimeout(() => {
  const router = createBrowserRouter(appRoutes);
  void Promise.all([languageReady, pageReady(router)]).then(() => start(router));
}, 0);
