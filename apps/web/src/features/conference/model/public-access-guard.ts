/**
 * Where the conference's public-access guard (spec §2) sends a webcast visitor without a display name: the name form
 * of the webcast's room link, `/publicaccess/{roomId}`; without a room id only the start page is left.
 */
export function nameFormPath(roomId: string | null | undefined): string {
  return roomId ? `/publicaccess/${encodeURIComponent(roomId)}` : '/';
}

/** The guard's own route for a meeting, with the room id when it is known (the guard finds it otherwise). */
export function guardPath(meetingId: string, roomId: string | null | undefined): string {
  const base = `/meetings/${encodeURIComponent(meetingId)}/conference/publicaccess`;
  return roomId ? `${base}/${encodeURIComponent(roomId)}` : base;
}
