import { requestTokenEarly } from '../lib/media-token.ts';
import { meetingOfConferencePath } from '../features/conference/model/early-call.ts';
import { loadClientConfig } from '../lib/client-config.ts';

/**
 * Evaluated before the rest of the app (main.tsx imports it first). Opening a meeting's call directly, its media
 * token and the client configuration are asked for now, while the browser still evaluates React, the router and
 * the pages (about a second of main-thread work on a loaded machine, more on a cheap phone), not after: the meeting
 * route's loader, which starts the call, takes the answer (EarlyRequest).
 */
const meetingId = meetingOfConferencePath(window.location.pathname);
if (meetingId) {
  requestTokenEarly(meetingId);
  loadClientConfig().catch(() => {
    // The loader asks again and reports a failure.
  });
}
