import { requestTokenEarly } from '../lib/media-token.ts';
import { meetingOfConferencePath } from '../features/conference/model/early-call.ts';
import { loadClientConfig } from '../lib/client-config.ts';
import { prefetchFirstLanguage } from '../i18n/first-language.ts';

/**
 * The app's first module, run from a small script of its own that the page's HTML names before the app's bundle
 * (vite.config.ts). Opening a meeting's call directly, its media token and the client configuration are asked for
 * now, while the browser still compiles and evaluates React, the router and the pages (over a second of main-thread
 * work on a loaded machine, more on a cheap phone), not after: the meeting route's loader, which starts the call,
 * takes the answer (EarlyRequest). main.tsx imports this module too; it runs once.
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
