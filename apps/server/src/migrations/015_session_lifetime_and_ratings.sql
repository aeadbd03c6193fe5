-- Absolute session lifetime (ASVS V7.3.2): the keep-alive slides expires_at, never past absolute_expires_at, which
-- is set once at login. Sessions open at this upgrade get the default 12 hours from now.
ALTER TABLE sessions ADD COLUMN absolute_expires_at timestamptz;
UPDATE sessions SET absolute_expires_at = greatest(expires_at, now() + interval '12 hours');
ALTER TABLE sessions ALTER COLUMN absolute_expires_at SET NOT NULL;

-- The identity provider's raw id_token is no longer kept with the session (only an encrypted copy, for the
-- provider's logout): the plain ones stored until now are dropped.
UPDATE sessions SET user_data = user_data - 'idToken' WHERE user_data ? 'idToken';

-- One call rating per participant per meeting. Who rated is kept apart from the ratings (which stay anonymous, no
-- link between the two rows) and goes with the booking at the retention purge.
CREATE TABLE meeting_poll_voters (
  meeting_id uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  voter text NOT NULL,
  PRIMARY KEY (meeting_id, voter)
);
