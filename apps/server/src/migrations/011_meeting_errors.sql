-- Felsökning (issue 8): recent errors per meeting, recorded by the server (media, chat) and reported by the
-- participants' browsers (a code from a fixed list and a short text, never personal data). They are booking data
-- of the meeting: deleted with the meeting row (the retention purge at midnight, or the admin deleting it).
CREATE TABLE meeting_errors (
  id bigserial PRIMARY KEY,
  meeting_id uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('media', 'chat', 'client')),
  code text NOT NULL CHECK (length(code) <= 64),
  message text NOT NULL CHECK (length(message) <= 500)
);
CREATE INDEX meeting_errors_meeting_idx ON meeting_errors (meeting_id, at DESC);

-- System messages carry a version: a stale edit gets 409 instead of overwriting someone else's (issue 8).
ALTER TABLE system_messages ADD COLUMN version integer NOT NULL DEFAULT 1;
