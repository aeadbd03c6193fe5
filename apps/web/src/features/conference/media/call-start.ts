import type { GetTokenData } from '@videomote/contract/media';
import { AUDIO_DEVICE_KEY, VIDEO_DEVICE_KEY } from '@videomote/contract/lobby';
import { clientConfigNow, loadClientConfig } from '../../../lib/client-config.ts';
import { takeArrivedToken, takeToken } from '../../../lib/media-token.ts';
import { CallModel } from '../model/call-model.ts';
import { earlyCallAbandoned } from '../model/early-call.ts';
import { MediaSession } from './media-session.ts';

/** A call whose media has started: gettoken's answer and the session it started. */
export interface StartedCall {
  data: GetTokenData;
  session: MediaSession;
}

function readLabel(key: string): string | null {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    return typeof v === 'string' && v ? v : null;
  } catch {
    return null;
  }
}

/**
 * gettoken and the client configuration, then the media session, started the moment both are there: the `/media`
 * socket is asked for in the task their answers arrive in, whatever React has still to render. When both are already
 * there (the lobby asked for the token as its consent box was ticked), it starts without awaiting anything: awaiting
 * even settled promises let the lobby's render of its button's click run first (3-66 ms in the media bench). Rejects
 * with gettoken's error (consent missing, not a member), which the meeting screen shows. `publishHeld`: receive only
 * until the screen calls `session.showing()`.
 */
export async function startCall(meetingId: string, model: CallModel, displayName: string | null, publishHeld = false): Promise<StartedCall> {
  model.connecting();
  const arrived = takeArrivedToken(meetingId);
  const configNow = clientConfigNow();
  const [data, config] = arrived && configNow ? [arrived, configNow] : await Promise.all([arrived ?? takeToken(meetingId, displayName), configNow ?? loadClientConfig()]);
  const session = new MediaSession({
    meetingId,
    token: data.tokenData.token,
    mediaBaseUrl: config.mediaBaseUrl,
    // The token's list carries this participant's own TURN credentials; the config's only password-free servers.
    iceServers: (data.iceServers ?? config.iceServers) as RTCIceServer[],
    model,
    preferred: { video: readLabel(VIDEO_DEVICE_KEY), audio: readLabel(AUDIO_DEVICE_KEY) },
    mediaKey: data.mediaKey,
    videoLayers: config.videoLayers,
    publishHeld,
    booked: data.meeting.participants.some((p) => p.currentUser),
  });
  // Browser tests read the peer connections' stats through this hook; it exists only when asked for.
  if (new URLSearchParams(window.location.search).has('vmtest')) {
    (window as unknown as Record<string, unknown>).__videomoteTest = { session, model, startedAt: performance.now() };
  }
  void session.start();
  return { data, session };
}

/** How often an early call nobody has taken looks whether the browser is still on its meeting screen. */
const UNTAKEN_CHECK_MS = 1_000;

/**
 * A call started by the meeting route's loader, before the meeting screen's code has rendered anything: on a busy
 * phone that render takes hundreds of ms, and the media need not wait for it. The screen renders from `model` and
 * takes the session once (`take`). If the browser goes elsewhere before it does, the call is closed within a
 * second, so nobody sees a person join who never reached the meeting screen (rules in model/early-call.ts).
 */
export class EarlyCall {
  readonly model = new CallModel();
  private readonly started: Promise<StartedCall>;
  private taken = false;
  /** Settles once the media session has been made and started (the `/media` socket asked for), or the call failed. */
  readonly sessionMade: Promise<unknown>;

  constructor(readonly meetingId: string) {
    // Receiving only, until the screen takes it: nothing is captured while the person still sees the lobby.
    this.started = startCall(meetingId, this.model, null, true);
    this.sessionMade = this.started.catch(() => {}); // the screen shows the error when it takes the call
    const since = Date.now();
    // The loader runs before an in-app navigation changes the address: the page being left is where it starts.
    const startedOn = window.location.pathname;
    const timer = setInterval(() => {
      if (this.taken) return clearInterval(timer);
      if (!earlyCallAbandoned({ pathname: window.location.pathname, waitedMs: Date.now() - since }, { meetingId, startedOn })) return;
      this.take()?.then((call) => call.session.close(), () => {});
      clearInterval(timer);
    }, UNTAKEN_CHECK_MS);
  }

  /**
   * Settles once the call's receiving connection has been negotiated (or the call failed or has nothing to receive),
   * at most `capMs` from now: see the meeting route's loader.
   */
  receiving(capMs: number): Promise<void> {
    const cap = new Promise<void>((resolve) => setTimeout(resolve, capMs));
    return Promise.race([this.started.then((call) => call.session.receiving.promise, () => {}), cap]);
  }

  /** The started call, to the first who asks; null after that (a second mount of the screen starts its own). */
  take(): Promise<StartedCall> | null {
    if (this.taken) return null;
    this.taken = true;
    return this.started;
  }
}
