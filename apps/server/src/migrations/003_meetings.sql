-- Meetings and their participants (booking spec §3). Personal identity numbers never appear in clear:
-- pin_hash (keyed HMAC) finds a person's meetings, pin_encrypted (AES-GCM) is read back only where needed.
CREATE TABLE meetings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title text NOT NULL,
  type smallint NOT NULL CHECK (type IN (0, 1)),
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  created timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  room_id text NOT NULL UNIQUE,
  version integer NOT NULL DEFAULT 1,
  self_registrations integer NOT NULL DEFAULT 0,
  count_info_participants integer NOT NULL DEFAULT 0,
  CHECK (end_time > start_time)
);
CREATE INDEX meetings_start_time_idx ON meetings (start_time);

CREATE TABLE meeting_participants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  meeting_id uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  position integer NOT NULL DEFAULT 0,
  role text NOT NULL,
  display_name text NOT NULL,
  af_id text,
  pin_hash text,
  pin_encrypted text,
  email text,
  is_participant boolean NOT NULL DEFAULT true,
  is_admin boolean NOT NULL DEFAULT false,
  self_registered boolean NOT NULL DEFAULT false
);
CREATE INDEX meeting_participants_meeting_idx ON meeting_participants (meeting_id);
CREATE INDEX meeting_participants_af_id_idx ON meeting_participants (af_id);
CREATE INDEX meeting_participants_pin_hash_idx ON meeting_participants (pin_hash);
