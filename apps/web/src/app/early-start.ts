import { requestTokenEarly } from '../lib/media-token.ts';
import { meetingOfConferencePath } from '../features/conference/model/early-call.ts';
import { loadClientConfig } from '../lib/client-config.ts';
import { prefetchFirstLanguage } from '../i18n/first-language.ts';

/**
 * The app's first module, the one script the page's HTML runs (vite.config.ts, `earlyStartFirst`). Opening a
 * meeting's call directly, its media token and the client configuration are asked for now, while the browser still
 * downloads and compiles React, the router and the pages (over a second of main-thread work on a loaded machine,
 * more on a cheap phone), not after: the meeting route's loader, which starts the call, takes the answer
 * (EarlyRequest). main.tsx imports this module too; it runs once.
 */
const meetingId = meetingOfConferencePath(window.location.pathname);
if (meetingId) {
  requestTokenEarly(meetingId);
  loadClientConfig().catch(() => {
    // The loader asks again and reports a failure.
  });
}
// Any page: the first screen's texts, when they are not the Swedish ones the bundle holds (i18n/first-language.ts).
prefetchFirstLanguage(window.location.pathname);

/**
 * Then the app itself, which the HTML only preloads (in a development server the HTML runs main.tsx itself and names
 * no bundle). A page whose first screen came with the HTML (first-screens.tsx) shows it before the app's code runs:
 * on a phone the bundle arrives after the HTML has been painted anyway, and run before, its evaluation would hold
 * that paint on a fast link (and Lighthouse's simulation then counts the bundle's download before the first paint).
 */
function startApp() {
  const app = document.querySelector<HTMLLinkElement>('link[data-videomote-app]');
  if (!app) return;
  const run = () => void import(/* @vite-ignore */ app.href);
  if (!document.getElementById('root')?.hasChildNodes()) return run();
  // After the next paint: a task queued from the frame's animation callback runs once that frame has been drawn.
  // A hidden tab draws no frames; there the timer starts it.
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    run();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startApp, { once: true });
else startApp();
