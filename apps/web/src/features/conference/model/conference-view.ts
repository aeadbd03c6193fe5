import type { CallState } from './call-model.ts';
import { statusText } from './layout.ts';
import { STATUS_TEXTS } from './texts.ts';

/** What the meeting screen shows, read from the call state: pure selectors the page only renders. */

/**
 * The people in the meeting, as the status line, the participants panel and the stored count read them (spec §2
 * "Call status screen", 'Deltagare (n)'): everyone in the meeting's presence (`present`, the chat socket's list the
 * panel shows; null before it has come), once the media session is connected. Not the media connections this page
 * is told of: in a webcast a viewer is told only of the presenters (capabilities.ts seesConnection), so counting those
 * said '2 personer' among one presenter and three viewers, and 'Ingen annan' to a viewer before the presenter came.
 * The larger of the two, so that neither list arriving late (or the chat socket being down) makes the line drop.
 */
export function participantCount(state: Pick<CallState, 'connectionStatus' | 'connections'>, present: number | null = null): number {
  return state.connectionStatus === 'connected' ? Math.max(state.connections.length, present ?? 0) : 0;
}

/**
 * The status line. While a media connection restarts its ICE the call goes on (same tiles), and it says
 * 'Återansluter...' (spec §7); a reconnect of the signalling reads as 'Ansluter...' again.
 */
export function callStatus(state: Pick<CallState, 'connectionStatus' | 'connections' | 'mediaReconnecting' | 'reconnecting'>, present: number | null = null): string {
  if (state.mediaReconnecting && state.connectionStatus === 'connected' && !state.reconnecting) return STATUS_TEXTS.reconnecting;
  return statusText(state.reconnecting ? 'connecting' : state.connectionStatus, participantCount(state, present));
}

/** The chat's ERROR line for a failed connection (spec §4, §8): the failure's message; null while none failed. */
export function connectionFailureLine(errors: CallState['errors']): string | null {
  const failed = errors.find((e) => e.key === 'connectionFailed');
  return failed ? failed.detail || failed.message : null;
}

/** The first connection is under way: the spinner. A reconnect keeps the tiles instead. */
export function showsSpinner(state: Pick<CallState, 'connectionStatus' | 'reconnecting'>): boolean {
  return (state.connectionStatus === 'connecting' || state.connectionStatus === 'idle') && !state.reconnecting;
}

/**
 * 'Dela skärm' is offered only where it can work: the browser can capture a screen (phones cannot) and the
 * meeting's group has the ScreenShare feature (Grupper), which the server's capabilities carry.
 */
export function canShareScreen(browserCanCapture: boolean, state: Pick<CallState, 'capabilities'>): boolean {
  return browserCanCapture && state.capabilities.screenShare;
}
