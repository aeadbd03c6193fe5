import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { migrate, openPglite, openPostgres } from '../../apps/server/src/platform/db.ts';
import { loadSecretKey, pinCrypto } from '../../apps/server/src/platform/crypto.ts';
import { copyMigratedCluster } from '../../apps/server/src/testing/migrated-cluster.ts';
import { insertMeeting, runningMeetingTimes, type FixtureParticipant } from '../../apps/server/src/testing/fixtures.ts';

export type SeedMeeting = Parameters<typeof insertMeeting>[2];
export type SeededMeeting = Awaited<ReturnType<typeof insertMeeting>>;

/** The people of a seeded conversation: Erik, the officer holding it (its administrator), and Jonna, the job seeker. */
export const ERIK_WITH_JONNA: FixtureParticipant[] = [
  { persona: 'erik', role: 'EmploymentOfficer', isAdmin: true },
  { persona: 'jonna', role: 'JobSeeker' },
];

/** Start and end of a meeting that is on now: it began ten minutes ago and lasts another hour, within today in Stockholm. */
export function underWayNow(): { start: Date; end: Date } {
  return runningMeetingTimes(new Date());
}

/**
 * A fresh DATA_DIR whose embedded database holds the meetings `seed` inserts, written before the server starts: for
 * bookings the booking API refuses (a start in the past, an ended webcast) or the form cannot make (roles it does
 * not offer, such as SignLanguageInterpreter). Answers the DATA_DIR and what `seed` answered.
 */
export async function seededDataDir<T>(seed: (insert: (meeting: SeedMeeting) => Promise<SeededMeeting>) => Promise<T>): Promise<{ dataDir: string; seeded: T }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-e2e-seeded-'));
  await copyMigratedCluster(path.join(dataDir, 'db'));
  const db = await openPglite(path.join(dataDir, 'db'));
  try {
    const pins = pinCrypto(loadSecretKey(dataDir, null));
    return { dataDir, seeded: await seed((meeting) => insertMeeting(db, pins, meeting)) };
  } finally {
    await db.close();
  }
}

/** A DATA_DIR holding one meeting that is on now. */
export async function dataDirWithMeeting(participants: FixtureParticipant[], title = 'Testmöte'): Promise<{ dataDir: string; meeting: { id: string; roomId: string } }> {
  const { dataDir, seeded } = await seededDataDir((insert) => insert({ title, type: 0, ...underWayNow(), participants }));
  return { dataDir, meeting: { id: seeded.id, roomId: seeded.roomId } };
}

/**
 * The same in a PostgreSQL schema of its own: a server given the answer's env (with the DATA_DIR, which holds the
 * PIN key) uses it; `drop` removes the schema afterwards.
 */
export async function postgresWithMeeting(
  databaseUrl: string,
  participants: FixtureParticipant[],
  title = 'Testmöte',
): Promise<{ dataDir: string; env: Record<string, string>; meeting: { id: string; roomId: string }; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'videomote-e2e-seeded-'));
  const schema = `seeded_${crypto.randomBytes(6).toString('hex')}`;
  const admin = openPostgres(databaseUrl, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const drop = () => admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).then(() => admin.close());
  const db = openPostgres(databaseUrl, { schema, max: 1 });
  try {
    await migrate(db);
    const meeting = await insertMeeting(db, pinCrypto(loadSecretKey(dataDir, null)), { title, type: 0, ...underWayNow(), participants });
    return { dataDir, env: { DATABASE_URL: databaseUrl, PGOPTIONS: `-c search_path=${schema}` }, meeting: { id: meeting.id, roomId: meeting.roomId }, drop };
  } catch (err) {
    await drop();
    throw err;
  } finally {
    await db.close();
  }
}
