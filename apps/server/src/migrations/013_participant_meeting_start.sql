-- Each participant row carries its meeting's start, so "my meetings this week" is one range in one index per
-- identity (agency id or personnummer hash) instead of every meeting of the week joined with every meeting of the
-- user. The repository writes it with the participant and moves it with the meeting; NOT NULL makes a path that
-- forgets it fail loudly rather than hide a meeting.
ALTER TABLE meeting_participants ADD COLUMN meeting_start timestamptz;
UPDATE meeting_participants p SET meeting_start = m.start_time FROM meetings m WHERE m.id = p.meeting_id;
ALTER TABLE meeting_participants ALTER COLUMN meeting_start SET NOT NULL;
CREATE INDEX meeting_participants_af_id_start_idx ON meeting_participants (af_id, meeting_start) INCLUDE (meeting_id);
CREATE INDEX meeting_participants_pin_hash_start_idx ON meeting_participants (pin_hash, meeting_start) INCLUDE (meeting_id);
DROP INDEX meeting_participants_af_id_meeting_idx;
DROP INDEX meeting_participants_pin_hash_meeting_idx;
