import type { Queryable } from '../../platform/db.ts';

export interface RoomRecord {
  meetingId: string;
  janusRoomId: number;
  secret: string;
  instance: string;
}

interface RoomRow {
  meeting_id: string;
  janus_room_id: string | number;
  secret: string;
  janus_instance: string;
}

const toRoom = (r: RoomRow): RoomRecord => ({ meetingId: r.meeting_id, janusRoomId: Number(r.janus_room_id), secret: r.secret, instance: r.janus_instance });

export async function findRoom(db: Queryable, meetingId: string): Promise<RoomRecord | null> {
  const rows = await db.query<RoomRow>('SELECT meeting_id, janus_room_id, secret, janus_instance FROM media_rooms WHERE meeting_id = $1', [meetingId]);
  return rows[0] ? toRoom(rows[0]) : null;
}

/** Inserts the room unless another request won the race; answers the stored one either way. */
export async function insertRoom(db: Queryable, room: RoomRecord): Promise<RoomRecord> {
  await db.query(
    'INSERT INTO media_rooms (meeting_id, janus_room_id, secret, janus_instance) VALUES ($1, $2, $3, $4) ON CONFLICT (meeting_id) DO NOTHING',
    [room.meetingId, room.janusRoomId, room.secret, room.instance],
  );
  return (await findRoom(db, room.meetingId))!;
}

/**
 * Moves a meeting's room from a Janus that no longer answers to another; only the first node to try moves it (the
 * others find it moved). Answers the stored room either way.
 */
export async function moveRoom(db: Queryable, meetingId: string, from: string, to: string): Promise<RoomRecord | null> {
  await db.query('UPDATE media_rooms SET janus_instance = $3 WHERE meeting_id = $1 AND janus_instance = $2', [meetingId, from, to]);
  return findRoom(db, meetingId);
}

export async function roomsPerInstance(db: Queryable): Promise<Map<string, number>> {
  const rows = await db.query<{ janus_instance: string; n: number }>('SELECT janus_instance, count(*) AS n FROM media_rooms GROUP BY janus_instance');
  return new Map(rows.map((r) => [r.janus_instance, Number(r.n)]));
}

/** Rooms whose meeting has ended (or no longer exists): candidates for destruction once empty. */
export async function roomsOfEndedMeetings(db: Queryable, now: Date): Promise<RoomRecord[]> {
  const rows = await db.query<RoomRow>(
    `SELECT r.meeting_id, r.janus_room_id, r.secret, r.janus_instance
       FROM media_rooms r JOIN meetings m ON m.id = r.meeting_id
      WHERE m.end_time < $1`,
    [now],
  );
  return rows.map(toRoom);
}

export async function deleteRoom(db: Queryable, meetingId: string): Promise<void> {
  await db.query('DELETE FROM media_rooms WHERE meeting_id = $1', [meetingId]);
}
