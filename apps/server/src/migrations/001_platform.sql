-- Server-side sessions. The cookie holds a random token; only its SHA-256 is stored, so a database read
-- does not yield usable sessions.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);
