import type { EarlyCall } from './call-start.ts';

let opening: { meetingId: string; call: Promise<EarlyCall | null> } | null = null;

/**
 * The call the early-start script is opening (app/early-start.ts: a meeting's call opened directly), handed to the
 * meeting route's loader through this small module, which both load without the call's code. `call` settles once the
 * call's code has run and the call is made (null if that code could not be loaded).
 */
export function openingCall(meetingId: string, call: Promise<EarlyCall | null>): void {
  opening = { meetingId, call };
}

/**
 * For the meeting route's loader: the call being opened for this meeting, once (however early the loader runs, it
 * waits for it rather than start a second call, whom the others would see as a second person). Null, not a promise,
 * when there is none: the loader entered from the lobby then starts its call in the click's own task (routes.tsx).
 */
export function takeOpeningCall(meetingId: string): Promise<EarlyCall | null> | null {
  const taken = opening?.meetingId === meetingId ? opening.call : null;
  opening = null;
  return taken;
}
