import type { JanusJS } from 'janus-gateway';
import { browserDetailsOf } from './browser-details.ts';
import { tappedWebSocket } from './media-socket.ts';

/** janus.js, loaded on first use so that it travels only with the conference route. */
export type JanusClass = typeof JanusJS.Janus;

let library: Promise<JanusClass> | null = null;
/** janus.js once initialised: a session that finds it so connects in the same task (see MediaSession.start). */
let loaded: JanusClass | null = null;

export function loadJanus(): Promise<JanusClass> {
  library ??= import('janus-gateway').then(
    (janusModule) =>
      new Promise<JanusClass>((resolve) => {
        const Janus = janusModule.default as JanusClass;
        // Not webrtc-adapter: janus.js reads only its browserDetails (browser-details.ts).
        const adapter = { browserDetails: browserDetailsOf(navigator.userAgent) };
        Janus.init({
          debug: false,
          dependencies: Janus.useDefaultDependencies({ adapter: adapter as never, WebSocket: tappedWebSocket() as never }),
          callback: () => resolve((loaded = Janus)),
        });
      }),
  );
  return library;
}

/** janus.js if it is initialised already, else null. */
export function loadedJanus(): JanusClass | null {
  return loaded;
}

/** Starts loading janus.js ahead of the session; a failure is left to the session's start, which tries again. */
export function preloadJanus(): void {
  loadJanus().catch(() => {
    library = null;
  });
}
