import type { GetTokenData } from '@videomote/contract/media';
import { api } from './api-client.ts';
import { ConsentRequests } from './consent-requests.ts';
import { EarlyRequest } from './early-request.ts';

/**
 * The call's media token, shared by the lobby (which asks for it with the consent, as its box is ticked) and the
 * meeting screen (which uses it), so that the screen takes the lobby's answer instead of asking again.
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

/** The lobby's consent box: ticking it records the consent and asks for the token, unticking withdraws it. */
export const lobbyConsent = new ConsentRequests<GetTokenData>(
  early,
  (meetingId) => getToken(meetingId, null, true),
  (meetingId) => api<null>('DELETE', `api/lobby/${encodeURIComponent(meetingId)}/consent`, undefined, { quiet: true }),
);

/** The early answer for this meeting if it is fresh and has already arrived (once), without awaiting it. */
export const takeArrivedToken = (meetingId: string) => early.takeArrived(meetingId);

/** The early answer for this meeting when there is a fresh one (once), else a new call. */
export const takeToken = (meetingId: string, displayName: string | null) => early.take(meetingId, () => getToken(meetingId, displayName));
