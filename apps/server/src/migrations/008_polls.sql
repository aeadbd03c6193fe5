-- Call rating polls (booking spec §3). Deliberately no link to who answered. No foreign key to meetings either:
-- a rating outlives the meeting row, which the retention purge deletes.
CREATE TABLE meeting_polls (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  meeting_id uuid NOT NULL,
  call_quality smallint NOT NULL CHECK (call_quality BETWEEN 1 AND 5),
  comment text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX meeting_polls_meeting_idx ON meeting_polls (meeting_id);
CREATE INDEX meeting_polls_created_idx ON meeting_polls (created_at);
