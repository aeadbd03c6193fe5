import { Type, type Static } from 'typebox';
import { IceServer } from './media.ts';

/**
 * The lobby's connection check: a test peer connection from the browser to the meeting's media server, through the
 * `/media` relay and Janus (its echo plugin) with the same ICE servers the call would use. Its outcome:
 * `direct` media flows straight to the media server, `turn` only through the TURN relay, `failed` not at all.
 */
export const ConnectionCheckResults = ['direct', 'turn', 'failed'] as const;
export type ConnectionCheckResult = (typeof ConnectionCheckResults)[number];
export const ConnectionCheckResultSchema = Type.Union([Type.Literal('direct'), Type.Literal('turn'), Type.Literal('failed')]);

export const ConnectionCheckParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * `POST /api/meeting/{id}/connectioncheck`: what the test connection needs. The token opens `/media` only
 * for a check (`probe=1`), never for the call itself (which needs the lobby's consent first).
 */
export const ConnectionCheckStart = Type.Object({ token: Type.String(), iceServers: Type.Array(IceServer) });
export type ConnectionCheckStart = Static<typeof ConnectionCheckStart>;

/** `POST /api/meeting/{id}/connectioncheck/result`: only the outcome; no address or other network detail. */
export const ConnectionCheckReport = Type.Object({ result: ConnectionCheckResultSchema }, { additionalProperties: false });
export type ConnectionCheckReport = Static<typeof ConnectionCheckReport>;

/** `GET /api/meeting/{id}/connectionchecks`: each participant's last check, for the meeting's staff. */
export const ParticipantConnectionCheck = Type.Object({
  participantId: Type.String(),
  result: ConnectionCheckResultSchema,
  checkedAt: Type.String({ format: 'date-time' }),
});
export type ParticipantConnectionCheck = Static<typeof ParticipantConnectionCheck>;
