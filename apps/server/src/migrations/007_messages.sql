-- System messages (booking spec §3): shown as alerts, during their window, to the audiences whose flag is set.
CREATE TABLE system_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type smallint NOT NULL CHECK (type IN (0, 1, 2)),
  value text NOT NULL,
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  show_external boolean NOT NULL DEFAULT false,
  show_internal boolean NOT NULL DEFAULT false,
  show_kauser boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (end_time > start_time)
);
CREATE INDEX system_messages_window_idx ON system_messages (start_time, end_time);
