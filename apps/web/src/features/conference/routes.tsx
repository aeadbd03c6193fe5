import type { RouteObject } from 'react-router';
import { requestTokenEarly } from '../../lib/media-token.ts';
import { loadClientConfig } from '../../lib/client-config.ts';
import type * as CallStartModule from './media/call-start.ts';

/** However slow the media, the meeting screen shows after this long (its own 'Ansluter...' then). */
const SCREEN_WAITS_AT_MOST_MS = 1_000;

type CallStart = typeof CallStartModule;
let callStart: CallStart | null = null;
const importCallStart = (): Promise<CallStart> => import('./media/call-start.ts').then((m) => (callStart = m));

/**
 * The lobby's warm-up (app/router.tsx): the meeting screen's code and janus.js fetched and made ready, and the call's
 * start module kept at hand, so that the loader starts the call in the click's own task (awaiting even a fetched
 * chunk's import let the lobby's render run first: 8-50 ms in the media bench).
 */
export function warmUpConference(): void {
  void import('./pages/conference-page.tsx').catch(() => {});
  void import('./media/media-session.ts').then((m) => m.prepareMedia(), () => {});
  void importCallStart().catch(() => {});
}

// The meeting screen and its two sub-routes (spec §2). janus.js loads only with the page: as soon as the route is
// chosen, alongside the page's own chunk, the user and gettoken, not after gettoken has answered; gettoken and the
// client configuration are asked for then too, and the loader starts the call's media (it waits only for that code,
// which the page's HTML already names for preloading).
export const conferenceRoutes: RouteObject[] = [
  {
    path: 'meetings/:id/conference',
    loader: async ({ params }) => {
      if (!params.id) return null;
      requestTokenEarly(params.id);
      void loadClientConfig().catch(() => {});
      // The call's media start as soon as gettoken answers, not after the screen's first render (call-start.ts).
      const { EarlyCall } = callStart ?? (await importCallStart());
      const call = new EarlyCall(params.id);
      // The screen's first render waits until the receiving connection is answered (the lobby stays meanwhile and
      // says 'Ansluter...'; opening the page directly, the loading screen): rendered at once, 100-300 ms of main
      // thread in the media bench held the join's signalling messages behind it; rendered now, it overlaps ICE and
      // DTLS, which need no main thread (figures: docs/benchmark-history.md, the media call bench, 28 November).
      await call.receiving(SCREEN_WAITS_AT_MOST_MS);
      return call;
    },
    shouldRevalidate: ({ currentParams, nextParams }) => currentParams.id !== nextParams.id,
    lazy: () => {
      void import('./media/media-session.ts').then((m) => m.prepareMedia());
      return import('./pages/conference-page.tsx').then((m) => ({ Component: m.ConferencePage }));
    },
  },
  { path: 'meetings/:id/conference/publicaccess/:roomid?', lazy: () => import('./pages/public-access-guard-page.tsx').then((m) => ({ Component: m.PublicAccessGuardPage })) },
  { path: 'meetings/:id/conference/publicaccessend', lazy: () => import('./pages/public-access-end-page.tsx').then((m) => ({ Component: m.ConferenceEndedPage })) },
];
