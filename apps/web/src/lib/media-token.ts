import type { GetTokenData } from '@videomote/contract/media';
import { api } from './api-client.ts';
import { EarlyRequest } from './early-request.ts';

/**
 * The call's media token, shared by the lobby (which asks for it with the consent) and the meeting screen (which
 * uses it), so that the screen takes the lobby's answer instead of asking again.
 *
 * `POST /api/meeting/gettoken` (spec §7). Quiet: the conference shows 'Anslutning misslyckades' in place. The server
 * takes the media name from the booking or the visitor's session, never from the request, so the call does not
 * need the user's data first.
 */
const getToken = (meetingId: string, displayName: string | null = null, consent = false) =>
  api<GetTokenData>('POST', 'api/meeting/gettoken', { meetingId, displayName, ...(consent ? { consent: true } : {}) }, { quiet: true });

// An answer older than 30 s is asked again: the meeting's participants or key may have changed since.
const early = new EarlyRequest<GetTokenData>(30_000);

/**
 * Asks for the token as soon as the meeting screen's route is chosen, alongside the user, the page's code and
 * janus.js, instead of after the user's data has come: one round trip less before the call connects.
 */
export const requestTokenEarly = (meetingId: string) => early.start(meetingId, () => getToken(meetingId));

/**
 * The lobby's join: the ticked consent box goes with the request for the token (the server records it first), and
 * the meeting screen takes the answer. One request less than consent, then the token. Asked anew even if an answer
 * without consent waits.
 */
export const requestTokenWithConsent = (meetingId: string) => early.restart(meetingId, () => getToken(meetingId, null, true));

/** The early answer for this meeting when there is a fresh one (once), else a new call. */
export const takeToken = (meetingId: string, displayName: string | null) => early.take(meetingId, () => getToken(meetingId, displayName));
