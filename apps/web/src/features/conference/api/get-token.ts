import type { GetTokenData } from '@videomote/contract/media';
import { api } from '../../../lib/api-client.ts';
import { EarlyRequest } from '../../../lib/early-request.ts';

/**
 * `POST /api/meeting/gettoken` (spec §7). Quiet: the conference shows 'Anslutning misslyckades' in place. The server
 * takes the media name from the booking or the visitor's session, never from the request, so the call does not
 * need the user's data first.
 */
export const getToken = (meetingId: string, displayName: string | null = null) =>
  api<GetTokenData>('POST', 'api/meeting/gettoken', { meetingId, displayName }, { quiet: true });

// An answer older than 30 s is asked again: the meeting's participants or key may have changed since.
const early = new EarlyRequest<GetTokenData>(30_000);

/**
 * Asks for the token as soon as the meeting screen's route is chosen, alongside the user, the page's code and
 * janus.js, instead of after the user's data has come: one round trip less before the call connects.
 */
export const requestTokenEarly = (meetingId: string) => early.start(meetingId, () => getToken(meetingId));

/** The early answer for this meeting when there is a fresh one (once), else a new call. */
export const takeToken = (meetingId: string, displayName: string | null) => early.take(meetingId, () => getToken(meetingId, displayName));
