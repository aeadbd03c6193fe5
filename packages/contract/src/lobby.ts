import { Type, type Static } from 'typebox';

/**
 * `GET /api/lobby/{id}`: what the lobby needs to know about a meeting before the device test. Only the meeting's
 * participants get an answer (403 for others, 404 for unknown meetings), so reaching the lobby is the server's call.
 */
export const LobbyMeeting = Type.Object({
  id: Type.String(),
  title: Type.String(),
  /** 0 Meeting (conversation), 1 Webcast (information meeting). */
  type: Type.Union([Type.Literal(0), Type.Literal(1)]),
  startTime: Type.String({ format: 'date-time' }),
  endTime: Type.String({ format: 'date-time' }),
});
export type LobbyMeeting = Static<typeof LobbyMeeting>;

export const LobbyParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Browser storage keys the conference reads back: preferred devices by label, as JSON strings (conference spec §3). */
export const VIDEO_DEVICE_KEY = 'video_device';
export const AUDIO_DEVICE_KEY = 'audio_device';
