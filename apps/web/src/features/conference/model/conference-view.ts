import type { CallState } from './call-model.ts';
import { statusText } from './layout.ts';
import { STATUS_TEXTS } from './texts.ts';

/** What the meeting screen shows, read from the call state: pure selectors the page only renders. */

/** People in the call as the status line counts them: the server's connection list, once connected. */
export function participantCount(state: Pick<CallState, 'connectionStatus' | 'connections'>): number {
  return state.connectionStatus === 'connected' ? state.connections.length : 0;
}

/**
 * The status line. While a media connection restarts its ICE the call goes on (same tiles), and it says
 * 'Återansluter...' (spec §7); a reconnect of the signalling reads as 'Ansluter...' again.
 */
export function callStatus(state: Pick<CallState, 'connectionStatus' | 'connections' | 'mediaReconnecting' | 'reconnecting'>): string {
  if (state.mediaReconnecting && state.connectionStatus === 'connected' && !state.reconnecting) return STATUS_TEXTS.reconnecting;
  return statusText(state.reconnecting ? 'connecting' : state.connectionStatus, participantCount(state));
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
