-- No one person switches a monitoring control off. Retiring an active version is a proposal by one person and
-- a confirmation by another (the workflow refuses the proposer; this CHECK backs it). Activation supersedes a
-- version whatever was proposed, and clears the proposal in the same statement.
ALTER TABLE monitoring_rule_versions
  ADD COLUMN retire_requested_by text,
  ADD COLUMN retire_requested_at timestamptz,
  ADD COLUMN retire_reason text CHECK (retire_reason IS NULL OR length(retire_reason) BETWEEN 1 AND 500);
ALTER TABLE monitoring_rule_versions ADD CONSTRAINT monitoring_rule_versions_retire_second_person
  CHECK (retire_requested_by IS NULL OR retired_by IS NULL OR lower(retired_by) <> lower(retire_requested_by));

-- A snooze of a holding rule is asked for by one person and silences nothing until another approves it; the
-- approval writes the snooze (monitoring_snoozes, which evaluation reads) in the same transaction.
CREATE TABLE monitoring_snooze_requests (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  rule_id       uuid NOT NULL REFERENCES monitoring_rules (id),
  sub_uid       text NOT NULL,
  until         timestamptz NOT NULL,
  reason        text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  requested_by  text NOT NULL,
  requested_at  timestamptz NOT NULL DEFAULT now(),
  state         text NOT NULL DEFAULT 'requested' CHECK (state IN ('requested', 'approved', 'declined')),
  decided_by    text,
  decided_at    timestamptz,
  snooze_id     bigint REFERENCES monitoring_snoozes (id),
  CHECK (state <> 'approved' OR (decided_by IS NOT NULL AND lower(decided_by) <> lower(requested_by)))
);
CREATE INDEX monitoring_snooze_requests_waiting ON monitoring_snooze_requests (requested_at) WHERE state = 'requested';
