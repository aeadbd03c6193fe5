import type { SystemMessage } from '@videomote/contract/messages';
import type { Queryable } from '../../platform/db.ts';

export type Audience = 'internal' | 'external' | 'kauser';

export interface MessageFields {
  type: 0 | 1 | 2;
  value: string;
  startTime: Date;
  endTime: Date;
  showExternal: boolean;
  showInternal: boolean;
  showKauser: boolean;
}

interface MessageRow {
  id: string;
  type: number;
  value: string;
  start_time: Date | string;
  end_time: Date | string;
  show_external: boolean;
  show_internal: boolean;
  show_kauser: boolean;
  version: number;
}

const COLUMNS = 'id, type, value, start_time, end_time, show_external, show_internal, show_kauser, version';

const toMessage = (r: MessageRow): SystemMessage => ({
  id: r.id,
  type: (r.type === 1 || r.type === 2 ? r.type : 0) as 0 | 1 | 2,
  value: r.value,
  startTime: new Date(r.start_time).toISOString(),
  endTime: new Date(r.end_time).toISOString(),
  showExternal: r.show_external,
  showInternal: r.show_internal,
  showKauser: r.show_kauser,
  version: Number(r.version),
});

// The audience decides the one flag column a message must have; a fixed map keeps user input out of the SQL.
const AUDIENCE_COLUMN: Record<Audience, string> = {
  internal: 'show_internal',
  external: 'show_external',
  kauser: 'show_kauser',
};

export async function listActiveMessages(db: Queryable, now: Date, audience: Audience): Promise<SystemMessage[]> {
  const rows = await db.query<MessageRow>(
    `SELECT ${COLUMNS} FROM system_messages
     WHERE start_time <= $1 AND end_time > $1 AND ${AUDIENCE_COLUMN[audience]}
     ORDER BY type DESC, start_time, id`,
    [now],
  );
  return rows.map(toMessage);
}

export async function listAllMessages(db: Queryable): Promise<SystemMessage[]> {
  const rows = await db.query<MessageRow>(`SELECT ${COLUMNS} FROM system_messages ORDER BY start_time DESC, id`);
  return rows.map(toMessage);
}

export async function findMessage(db: Queryable, id: string): Promise<SystemMessage | null> {
  const rows = await db.query<MessageRow>(`SELECT ${COLUMNS} FROM system_messages WHERE id = $1`, [id]);
  return rows[0] ? toMessage(rows[0]) : null;
}

export async function insertMessage(db: Queryable, m: MessageFields): Promise<SystemMessage> {
  const rows = await db.query<MessageRow>(
    `INSERT INTO system_messages (type, value, start_time, end_time, show_external, show_internal, show_kauser)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [m.type, m.value, m.startTime, m.endTime, m.showExternal, m.showInternal, m.showKauser],
  );
  return toMessage(rows[0]!);
}

/**
 * Writes the message only if it still has the version the admin edited: the check and the write are one statement,
 * so of two concurrent updates exactly one gets the row. Null when the id is unknown or the version is stale.
 */
export async function updateMessageIfVersion(db: Queryable, id: string, version: number, m: MessageFields): Promise<SystemMessage | null> {
  const rows = await db.query<MessageRow>(
    `UPDATE system_messages SET type = $3, value = $4, start_time = $5, end_time = $6, show_external = $7,
       show_internal = $8, show_kauser = $9, version = version + 1, updated_at = now()
     WHERE id = $1 AND version = $2 RETURNING ${COLUMNS}`,
    [id, version, m.type, m.value, m.startTime, m.endTime, m.showExternal, m.showInternal, m.showKauser],
  );
  return rows[0] ? toMessage(rows[0]) : null;
}

export async function deleteMessage(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM system_messages WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}
