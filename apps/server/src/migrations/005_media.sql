-- One Janus VideoRoom per meeting. The room secret lives only here and in the server's memory: it never reaches
-- a browser. Keeping the mapping in the database lets a restarted server find (or recreate) its rooms.
CREATE TABLE media_rooms (
  meeting_id uuid PRIMARY KEY REFERENCES meetings (id) ON DELETE CASCADE,
  janus_room_id bigint NOT NULL UNIQUE,
  secret text NOT NULL,
  janus_instance text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_rooms_instance_idx ON media_rooms (janus_instance)
