import { requestTokenEarly } from '../lib/media-token.ts';
import { meetingOfConferencePath } from '../features/conference/model/early-call.ts';
import { loadClientConfig } from '../lib/client-config.ts';
import { prefetchFirstLanguage } from '../i18n/first-language.ts';
import { openingCall } from '../features/conference/media/opening-call.ts';

/**
 * The app's first module, the one script the page's HTML runs (vite.config.ts, `earlyStartFirst`). Opening a
 * meeting's call directly, its media token and the client configuration are asked for now, while the browser still
 * downloads and compiles React, the router and the pages (over a second of main-thread work on a loaded machine,
 * more on a cheap phone), not after, and the call's media are started with them (openCallBeforeTheApp). main.tsx
 * imports this module too; it runs once.
 */
/**
 * How long the app's code waits for the call's receiving connection to be answered before it runs anyway. Until
 * then the page shows the loading spinner that came with its HTML (first-screens.tsx), which the app would show as
 * well: the meeting screen's first render waits for the same answer (features/conference/routes.tsx).
 * Declared before the code below uses it: the build turns a top-level `const` into a `var`, so used before this line
 * it was `undefined`, a timer of 0 ms, and the app ran at once instead of after the call's start (join bench, 3 December).
 */
const APP_WAITS_FOR_CALL_MS = 900;

const meetingId = meetingOfConferencePath(window.location.pathname);
let appMayStart: Promise<unknown> = Promise.resolve();
if (meetingId) {
  requestTokenEarly(meetingId);
  loadClientConfig().catch(() => {
    // The loader asks again and reports a failure.
  });
  appMayStart = openCallBeforeTheApp(meetingId);
}
// Any page: the first screen's texts, when they are not the Swedish ones the bundle holds (i18n/first-language.ts).
prefetchFirstLanguage(window.location.pathname);

/**
 * Opening a meeting's call directly, its media start before the app's code runs, not after: the call's modules and
 * janus.js are small beside React, the router and the pages, whose evaluation is one long task (100-180 ms on this
 * VM, more on a phone) and whose start and render take more. Run as soon as the session was made, that work held
 * the `/media` socket's messages, Janus's offer and the answer behind it on the main thread (the join bench's
 * timeline, 3 December: the socket open 130 ms after it was made); run once the receiving connection is answered,
 * it overlaps ICE and DTLS, which need no main thread (docs/benchmarks.md). The route's loader takes the call
 * (opening-call.ts); one nobody takes closes itself, as the loader's own does.
 */
function openCallBeforeTheApp(meeting: string): Promise<unknown> {
  const call = Promise.all([import('../features/conference/media/call-start.ts'), import('../features/conference/media/janus-loader.ts').then((m) => m.loadJanus())]).then(
    ([callStart]) => new callStart.EarlyCall(meeting),
    () => null, // the loader starts the call itself, and says what failed
  );
  openingCall(meeting, call);
  const cap = new Promise((resolve) => setTimeout(resolve, APP_WAITS_FOR_CALL_MS));
  return Promise.race([call.then((c) => c?.receiving(APP_WAITS_FOR_CALL_MS)), cap]);
}

/**
 * Then the app itself, which the HTML only preloads (in a development server the HTML runs main.tsx itself and names
 * no bundle). A page whose first screen came with the HTML (first-screens.tsx) shows it before the app's code runs:
 * on a phone the bundle arrives after the HTML has been painted anyway, and run before, its evaluation would hold
 * that paint on a fast link (and Lighthouse's simulation then counts the bundle's download before the first paint).
 */
function startApp() {
  const app = document.querySelector<HTMLLinkElement>('link[data-videomote-app]');
  if (!app) return;
  const painted = document.getElementById('root')?.hasChildNodes() ? nextPaint() : null;
  // React and the router first, the app's own modules a task later (vite.config.ts, LIBRARY_CHUNK).
  const library = document.querySelector<HTMLLinkElement>('link[data-videomote-library]');
  void Promise.all([painted, appMayStart])
    .then(() => (library ? import(/* @vite-ignore */ library.href).then(() => new Promise((resolve) => setTimeout(resolve, 0))) : null))
    .then(() => import(/* @vite-ignore */ app.href));
}

/**
 * Settles after the next frame has been drawn: a task queued from the frame's animation callback runs once it has.
 * A hidden tab draws no frames; there the timer settles it.
 */
function nextPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', startApp, { once: true });
else startApp();
