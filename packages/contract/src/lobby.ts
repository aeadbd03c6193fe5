import { Type } from 'typebox';
import { MeetingHeading } from './meetings.ts';

/**
 * `GET /api/lobby/{id}`: what the lobby needs to know about a meeting before the device test. Only the meeting's
 * participants get an answer (403 for others, 404 for unknown meetings), so reaching the lobby is the server's call.
 */
export const LobbyMeeting = MeetingHeading;
export type LobbyMeeting = MeetingHeading;

export const LobbyParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Browser storage keys the conference reads back: preferred devices by label, as JSON strings (conference spec §3). */
export const VIDEO_DEVICE_KEY = 'video_device';
export const AUDIO_DEVICE_KEY = 'audio_device';
