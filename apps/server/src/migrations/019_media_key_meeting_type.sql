-- Which meeting type the media key was made for: a webcast's key has been handed to its anonymous visitors, so when
-- the meeting is turned into a conversation meeting (or back) the key is replaced (MediaKeys.current / rotateIfStale).
ALTER TABLE media_keys ADD COLUMN meeting_type smallint;
UPDATE media_keys k SET meeting_type = m.type FROM meetings m WHERE m.id = k.meeting_id;
ALTER TABLE media_keys ALTER COLUMN meeting_type SET NOT NULL;
