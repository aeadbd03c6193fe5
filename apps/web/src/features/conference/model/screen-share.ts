import { screenStreamId, type CallState } from './call-model.ts';
import { SHARE_TEXTS } from './texts.ts';

/** Screen sharing rules of conference spec §2 and §4, free of React and of the media library. */

/**
 * Another connection that currently shares its screen. One sharer at a time, but during a takeover the old share
 * can still be listed for a moment beside the new one: the focused share (the new one, see CallModel) wins then.
 */
export function remoteSharer(state: CallState): { connectionId: string; displayName: string } | null {
  const sharers = state.connections.filter((x) => x.connectionId !== state.connectionId && x.screenFeedId);
  const c = sharers.find((x) => screenStreamId(x.connectionId) === state.streamWithFocus?.streamId) ?? sharers[0];
  return c ? { connectionId: c.connectionId, displayName: c.displayName } : null;
}

/** The toolbar line: 'Du delar skärm', '{name} delar skärm' (or 'Någon annan' without a name), or nothing. */
export function sharerText(state: CallState): string | null {
  if (state.isSharingScreen) return SHARE_TEXTS.youShare;
  const other = remoteSharer(state);
  if (!other) return null;
  return SHARE_TEXTS.shares(other.displayName.trim() || SHARE_TEXTS.someoneElse);
}

/**
 * What pressing 'Dela skärm' / 'Avsluta skärmdelning' does (spec §4 Screen sharing). Whoever has the button may
 * share (capabilities.screenShare) and so may take a share over after the confirmation (spec §6: any participant;
 * the server grants forceUnpublish with screenShare): there is no "busy" answer.
 */
export type ShareAction = { kind: 'stop' } | { kind: 'ask'; connectionId: string; displayName: string } | { kind: 'start' };

export function shareAction(state: CallState): ShareAction {
  if (state.isSharingScreen) return { kind: 'stop' };
  const other = remoteSharer(state);
  if (other) return { kind: 'ask', connectionId: other.connectionId, displayName: other.displayName.trim() || SHARE_TEXTS.someoneElse };
  return { kind: 'start' };
}

/** A denied picker (the user said no) is silent; anything else is shown (spec §4). */
export function isShareDenied(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name ?? '';
  return name === 'NotAllowedError' || name === 'AbortError';
}

/**
 * The own share after the media session was lost and started afresh (a failed resume: a new connection, a new
 * publisher needed). Its capture still runs and the sharer was never told it stopped, so it is published again —
 * unless the capture ended meanwhile, the new connection may not share, or someone else shares now: a takeover
 * while this page was away is not undone. The page's own former connection, which the server may still list with its
 * share for a moment, is not someone else.
 */
export function shareAfterFreshStart(state: CallState, share: { live: boolean; sharedFrom: string | null }): 'publish' | 'end' {
  if (!share.live || !state.capabilities.publish || !state.capabilities.screenShare) return 'end';
  const someoneElseShares = state.connections.some(
    (c) => c.screenFeedId && c.connectionId !== state.connectionId && c.connectionId !== share.sharedFrom,
  );
  return someoneElseShares ? 'end' : 'publish';
}
