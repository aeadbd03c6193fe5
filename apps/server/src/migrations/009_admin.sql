-- Grupper: which identity role grants which features and admin, applied when a user logs in.
-- Seeded with the grants of ARCHITECTURE.md so an untouched installation behaves as documented.
CREATE TABLE role_grants (
  role text PRIMARY KEY,
  features text[] NOT NULL DEFAULT '{}',
  is_admin boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO role_grants (role, features, is_admin) VALUES
  ('VIDAdmin', ARRAY['EditMeeting', 'InternalMeeting', 'ScreenShare'], true),
  ('VIDMedarbetare', ARRAY['EditMeeting', 'InternalMeeting', 'ScreenShare'], false),
  ('KompletterandeAktör', ARRAY['EditMeeting'], false),
  ('FriståendeAktör', ARRAY['EditMeeting'], false),
  ('Participant', '{}', false);

-- AppSettings feature flags; a missing row means the flag's built-in default.
CREATE TABLE feature_flags (
  key text PRIMARY KEY,
  enabled boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
