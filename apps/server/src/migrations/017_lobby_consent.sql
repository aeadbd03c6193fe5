-- The lobby's consent (booking spec §4, §5 lobby): a participant confirms that they understand how personal data
-- is handled before entering the call. Recorded per participant row (and so per meeting), so the media token is
-- refused until it exists: a bookmark or the back button cannot skip the lobby. Gone with the participant.
CREATE TABLE lobby_consents (
  participant_id uuid PRIMARY KEY REFERENCES meeting_participants (id) ON DELETE CASCADE,
  meeting_id uuid NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  consented_at timestamptz NOT NULL
);
