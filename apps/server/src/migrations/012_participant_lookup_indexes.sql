-- "My meetings" looks a user up by agency id or by personnummer hash and needs only the meeting ids: with the
-- meeting id in the index, PostgreSQL answers from the index alone instead of visiting every participant row.
CREATE INDEX meeting_participants_af_id_meeting_idx ON meeting_participants (af_id, meeting_id);
CREATE INDEX meeting_participants_pin_hash_meeting_idx ON meeting_participants (pin_hash, meeting_id);
DROP INDEX meeting_participants_af_id_idx;
DROP INDEX meeting_participants_pin_hash_idx;
