import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openPglite, type Db } from '../../platform/db.ts';
import { migratedClusterTarball } from '../../testing/migrated-cluster.ts';
import { listRoleGrants, saveRoleGrants } from './role-grants.ts';

// Migration 020: ScreenShare for every group by default, on a new installation and on an existing one, except where
// an administrator has changed the group in Grupper. Real PostgreSQL (PGlite), the real migration runner.
const MIGRATION = '020_screen_share_for_every_group.sql';
let db: Db;
beforeAll(async () => {
  db = await openPglite(null, { loadDataDir: await migratedClusterTarball() });
});
afterAll(async () => db.close());

const featuresOf = async () => Object.fromEntries((await listRoleGrants(db)).map((g) => [g.role, g.features]));

describe('ScreenShare for every group (migration 020)', () => {
  it('a new installation grants it to every group', async () => {
    expect(await featuresOf()).toEqual({
      Participant: ['ScreenShare'],
      VIDAdmin: ['EditMeeting', 'InternalMeeting', 'ScreenShare'],
      KompletterandeAktör: ['EditMeeting', 'ScreenShare'],
      FriståendeAktör: ['EditMeeting', 'ScreenShare'],
      VIDMedarbetare: ['EditMeeting', 'InternalMeeting', 'ScreenShare'],
    });
  });

  it('an existing installation gets it where no administrator changed the group, and keeps what one did', async () => {
    // The table as 009 left it (an UPDATE by hand does not stamp updated_at, as no administrator's save is recorded).
    await db.query("UPDATE role_grants SET features = ARRAY['EditMeeting'] WHERE role IN ('KompletterandeAktör', 'FriståendeAktör')");
    await db.query("UPDATE role_grants SET features = '{}' WHERE role = 'Participant'");
    // The administrator withdrew sharing from staff, and switched it on and off again for MSFA users.
    await saveRoleGrants(db, { grants: [{ role: 'VIDMedarbetare', features: ['EditMeeting', 'InternalMeeting'], isAdmin: false }] });
    await saveRoleGrants(db, { grants: [{ role: 'FriståendeAktör', features: ['EditMeeting', 'ScreenShare'], isAdmin: false }] });
    await saveRoleGrants(db, { grants: [{ role: 'FriståendeAktör', features: ['EditMeeting'], isAdmin: false }] });
    // Then saved the whole table as it stood (the page sends every row): the rows it did not change stay unstamped.
    await saveRoleGrants(db, { grants: (await listRoleGrants(db)).map(({ role, features, isAdmin }) => ({ role, features, isAdmin })) });

    await db.query('DELETE FROM schema_migrations WHERE version = $1', [MIGRATION]);
    expect(await migrate(db)).toEqual([MIGRATION]);
    expect(await featuresOf()).toEqual({
      Participant: ['ScreenShare'],
      VIDAdmin: ['EditMeeting', 'InternalMeeting', 'ScreenShare'],
      KompletterandeAktör: ['EditMeeting', 'ScreenShare'],
      FriståendeAktör: ['EditMeeting'],
      VIDMedarbetare: ['EditMeeting', 'InternalMeeting'],
    });
  });
});
