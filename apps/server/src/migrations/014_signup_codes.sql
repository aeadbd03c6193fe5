-- Self-registration is something a meeting's admin turns on for that meeting. The sign-up link then carries a code
-- of its own (not the meeting id, which is in every lobby link, nor the room id, which webcast visitors hold):
-- stored as a SHA-256 hash to check a link against, and AES-GCM encrypted (the personnummer key) so that the admin
-- can be shown the link again. Both NULL means sign-up is off; renewing replaces both, so old links stop working.
-- Meetings booked before this start with sign-up off.
ALTER TABLE meetings ADD COLUMN signup_code_hash text, ADD COLUMN signup_code_encrypted text;
ALTER TABLE meetings ADD CONSTRAINT meetings_signup_code_pair CHECK ((signup_code_hash IS NULL) = (signup_code_encrypted IS NULL));

-- Self-registration never grants a meeting's moderation powers, whatever a later edit asks for.
UPDATE meeting_participants SET is_admin = false WHERE self_registered AND is_admin;
ALTER TABLE meeting_participants ADD CONSTRAINT meeting_participants_self_registered_not_admin CHECK (NOT (self_registered AND is_admin));
