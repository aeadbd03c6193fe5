-- The lobby's connection check (issue: media reach): each participant's last outcome, so that the meeting's staff
-- see before the meeting who needed TURN or could not get media through at all. Only the outcome and when: no
-- address, candidate or other network detail is kept. Gone with the participant (and so with the meeting).
CREATE TABLE connection_checks (
  participant_id uuid PRIMARY KEY REFERENCES meeting_participants (id) ON DELETE CASCADE,
  meeting_id uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  result text NOT NULL CHECK (result IN ('direct', 'turn', 'failed')),
  checked_at timestamptz NOT NULL
);
CREATE INDEX connection_checks_meeting ON connection_checks (meeting_id);
