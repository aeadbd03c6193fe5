-- Accessibility problem reports from /accessability (DOS law feedback), read by administrators. The reporter is
-- recorded by kind only; a contact detail is stored only when the reporter chose to give one.
CREATE TABLE accessibility_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  description text NOT NULL,
  page_url text,
  contact text,
  reporter_kind text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX accessibility_reports_created_idx ON accessibility_reports (created_at);
