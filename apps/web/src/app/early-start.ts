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
 * How long the app's code waits for the call's media to start (token and configuration answered, the `/media` socket
 * asked for) before it runs anyway: on a slow link the loading spinner is held back at most this long for the token.
 * Declared before the code below uses it: the build turns a top-level `const` into a `var`, so used before this line
 * it was `undefined`, a timer of 0 ms, and the app ran at once instead of after the call's start (join bench, 3 December).
 */
const APP_WAITS_FOR_CALL_MS = 400;

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
 * janus.js are small beside React, the router and the pages, whose evaluation is one long task (180 ms on this VM,
 * more on a phone) that held the `/media` socket back until the route's loader ran (the join bench's timeline:
 * docs/benchmarks.md). Now the socket's handshake and Janus's answers travel while that task runs. The route's loader
 * takes the call (opening-call.ts); one nobody takes closes itself, as the loader's own does.
 */
function openCallBeforeTheApp(meeting: string): Promise<unknown> {
  const call = Promise.all([import('../features/conference/media/call-start.ts'), import('../features/conference/media/janus-loader.ts').then((m) => m.loadJanus())]).then(
    ([callStart]) => new callStart.EarlyCall(meeting),
    () => null, // the loader starts the call itself, and says what failed
  );
  openingCall(meeting, call);
  const cap = new Promise((resolve) => setTimeout(resolve, APP_WAITS_FOR_CALL_MS));
  return Promise.race([call.then((c) => c?.sessionMade), cap]);
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
  const run = () => void import(/* @vite-ignore */ app.href);
  if (!document.getElementById('root')?.hasChildNodes()) return void appMayStart.then(run);
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
