-- Grupper: ScreenShare for every group by default (booking spec §1: in a conversation meeting "all participants may
-- use sound, video, screen sharing and chat"; conference spec §6: any participant may take a share over). It stays
-- the administrator's switch to withdraw per group; 009 had seeded it for staff only.
--
-- An existing installation gets the new default only where no administrator has changed the row. How we tell: 009
-- seeded every row in the transaction that recorded 009 in schema_migrations, so an untouched row's updated_at is
-- exactly that migration's applied_at (both are now(), the transaction's start). Every save in Grupper sets
-- updated_at = now(), so a row an administrator saved reads later and is left as the administrator left it: we
-- cannot tell a deliberate "no screen sharing for this group" from "saved the table without looking at that box",
-- and taking a withdrawal back would be the worse mistake. updated_at is not bumped here, so the row still reads
-- as untouched by an administrator.
UPDATE role_grants
   SET features = array_append(features, 'ScreenShare')
 WHERE NOT ('ScreenShare' = ANY (features))
   AND updated_at = (SELECT applied_at FROM schema_migrations WHERE version = '009_admin.sql');
