-- Anonymous daily aggregates for Statistik. Nothing here names a person or links to a meeting row, so the
-- figures survive the retention purge of meetings and participants.
CREATE TABLE stats_daily (
  day date PRIMARY KEY,
  meetings integer NOT NULL DEFAULT 0,
  webcasts integer NOT NULL DEFAULT 0,
  participants integer NOT NULL DEFAULT 0,
  webcast_audience integer NOT NULL DEFAULT 0,
  rating_1 integer NOT NULL DEFAULT 0,
  rating_2 integer NOT NULL DEFAULT 0,
  rating_3 integer NOT NULL DEFAULT 0,
  rating_4 integer NOT NULL DEFAULT 0,
  rating_5 integer NOT NULL DEFAULT 0
);

-- Which meetings are already counted, so recording a held meeting twice (sweep, retention job, meetings module)
-- counts it once. Holds only the random meeting id.
CREATE TABLE stats_recorded_meetings (
  meeting_id uuid PRIMARY KEY,
  day date NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
