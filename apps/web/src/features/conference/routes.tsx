import type { RouteObject } from 'react-router';
import { requestTokenEarly } from '../../lib/media-token.ts';
import { loadClientConfig } from '../../lib/client-config.ts';
import { takeOpeningCall } from './media/opening-call.ts';
import type * as CallStartModule from './media/call-start.ts';

/** However slow the media, the meeting screen shows after this long (its own 'Ansluter...' then). */
const SCREEN_WAITS_AT_MOST_MS = 1_000;

type CallStart = typeof CallStartModule;
let callStart: CallStart | null = null;
const importCallStart = (): Promise<CallStart> => import('./media/call-start.ts').then((m) => (callStart = m));

/** The meta element in which the build names the meeting screen's files (vite.config.ts, `callScreenFiles`). */
export const CALL_SCREEN_FILES_META = 'videomote-call-screen-files';

/**
 * The lobby's first step (app/router.tsx): the meeting screen's code, janus.js and their styles downloaded (and the
 * scripts compiled), not run, so that entering waits for no download (seconds on a weak mobile link). Running them
 * is warmUpConference's, on the person's intent to join. Without the build's list (the dev server) nothing is done
 * here: warmUpConference then downloads too.
 */
export function downloadConference(doc: Document = document): void {
  const files = doc.querySelector(`meta[name="${CALL_SCREEN_FILES_META}"]`)?.getAttribute('content')?.split(' ').filter(Boolean) ?? [];
  for (const href of files) {
    if (doc.head.querySelector(`link[href="${href}"]`)) continue;
    const link = doc.createElement('link');
    // A style is only fetched here; Vite's loader adds it as a stylesheet when the screen's chunk is imported.
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    doc.head.append(link);
  }
}

/**
 * The lobby's second step (app/router.tsx), when the person is about to join: the meeting screen's code and
 * janus.js run and made ready and the encryption worker started, and the call's start module kept at hand, so that
 * the loader starts the call in the click's own task (awaiting even a fetched chunk's import let the lobby's render
 * run first: 8-50 ms in the media bench).
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
      // The call's media start as soon as gettoken answers, not after the screen's first render (call-start.ts).
      // Opened directly, the early-start script has started it already, token and all: asked for again here once the
      // call had taken it, every such join asked twice (and met gettoken's limit of 30 a minute in the join bench).
      const opening = takeOpeningCall(params.id);
      if (!opening) requestTokenEarly(params.id);
      void loadClientConfig().catch(() => {});
      const opened = opening && (await opening);
      const { EarlyCall } = callStart ?? (await importCallStart());
      const call = opened ?? new EarlyCall(params.id);
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
