import { api } from '../../../lib/api-client.ts';

/** Screen-share takeover: the server stops the other connection's share (forceUnpublish capability, room secret). */
export const forceUnpublish = (meetingId: string, connectionId: string) =>
  api<null>('POST', `api/media/${encodeURIComponent(meetingId)}/forceunpublish`, { connectionId }, { quiet: true });
