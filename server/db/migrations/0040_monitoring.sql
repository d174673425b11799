-- 0040_monitoring: rules that watch the ledger (server/monitoring), the alerts they raise, the cases
-- compliance works them in, and snoozes. A rule is data: a kind from the catalog and its parameters, kept
-- in versions (draft -> active -> retired); an active version is evaluated as the ledger syncs and at each
-- withdrawal request.

CREATE TABLE monitoring_rules (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  created_by  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE monitoring_rule_versions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  rule_id       uuid NOT NULL REFERENCES monitoring_rules (id),
  version       integer NOT NULL CHECK (version > 0),
  kind          text NOT NULL,
  -- The kind's parameters as its schema parsed them (amounts stay decimal strings).
  params        jsonb NOT NULL,
  severity      text NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
  -- A holding rule's open alerts stop the approval of the sub-account's withdrawals.
  holds         boolean NOT NULL DEFAULT false,
  state         text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'active', 'retired')),
  author        text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  activated_by  text,
  activated_at  timestamptz,
  retired_by    text,
  retired_at    timestamptz,
  -- The last backtest over the ledger's whole history (per month, top sub-accounts, samples), kept so the
  -- decision to activate can be shown later.
  backtest      jsonb,
  backtest_at   timestamptz,
  -- Asked for and not yet run when later than backtest_at (the backtest job, jobs.ts).
  backtest_requested_at  timestamptz,
  -- When the version's evaluation over the whole history finished (jobs.ts queues it until then).
  history_evaluated_at  timestamptz,
  UNIQUE (rule_id, version),
  -- Two-person rule, enforced by the database as well as by the workflow.
  CONSTRAINT monitoring_activator_not_author CHECK (activated_by IS NULL OR lower(activated_by) <> lower(author)),
  CONSTRAINT monitoring_active_has_activator CHECK (state = 'draft' OR (activated_by IS NOT NULL AND activated_at IS NOT NULL))
);
-- At most one active version of a rule.
CREATE UNIQUE INDEX monitoring_rule_versions_one_active ON monitoring_rule_versions (rule_id) WHERE state = 'active';

CREATE TABLE monitoring_cases (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sub_uid         text NOT NULL,
  status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'investigating', 'closed')),
  assignee        text,
  outcome         text CHECK (outcome IN ('false_positive', 'monitored', 'reported')),
  outcome_reason  text,
  opened_at       timestamptz NOT NULL DEFAULT now(),
  closed_by       text,
  closed_at       timestamptz,
  CONSTRAINT monitoring_case_closed_has_outcome CHECK (
    (status = 'closed') = (outcome IS NOT NULL AND outcome_reason IS NOT NULL AND closed_by IS NOT NULL AND closed_at IS NOT NULL)
  )
);
-- Alerts of a sub-account gather into its one case that is not closed.
CREATE UNIQUE INDEX monitoring_cases_one_open ON monitoring_cases (sub_uid) WHERE status <> 'closed';
CREATE INDEX monitoring_cases_opened ON monitoring_cases (opened_at DESC, id DESC);

CREATE TABLE monitoring_alerts (
  id               bigserial PRIMARY KEY,
  rule_version_id  uuid NOT NULL REFERENCES monitoring_rule_versions (id),
  rule_id          uuid NOT NULL REFERENCES monitoring_rules (id),
  sub_uid          text NOT NULL,
  -- The window the alert is for: a record's own key (d:<orderId>, w:<request id>) for rules over one
  -- record, the start of the window (ms) for rules over a span. With the version and the sub-account it
  -- is the alert's identity: evaluating again, retrying or a second instance raise nothing new.
  occurrence       text NOT NULL,
  window_start     bigint NOT NULL,
  window_end       bigint NOT NULL,
  severity         text NOT NULL,
  holds            boolean NOT NULL,
  -- What the rule measured (a decimal string) and the ledger records it concerns.
  value            text NOT NULL,
  records          jsonb NOT NULL DEFAULT '[]',
  status           text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'cleared', 'closed')),
  cleared_by       text,
  cleared_at       timestamptz,
  clear_reason     text,
  case_id          uuid REFERENCES monitoring_cases (id),
  raised_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (rule_version_id, sub_uid, occurrence),
  CONSTRAINT monitoring_alert_cleared_has_who CHECK (status <> 'cleared' OR (cleared_by IS NOT NULL AND clear_reason IS NOT NULL))
);
CREATE INDEX monitoring_alerts_raised ON monitoring_alerts (raised_at DESC, id DESC);
CREATE INDEX monitoring_alerts_sub ON monitoring_alerts (sub_uid, raised_at DESC, id DESC);
-- /alerts' usual view: the open (or cleared, closed) ones of a severity, newest first, and their count.
CREATE INDEX monitoring_alerts_status ON monitoring_alerts (status, severity, raised_at DESC, id DESC);
CREATE INDEX monitoring_alerts_case ON monitoring_alerts (case_id);
CREATE INDEX monitoring_alerts_uncased ON monitoring_alerts (sub_uid) WHERE case_id IS NULL;
CREATE INDEX monitoring_alerts_holding ON monitoring_alerts (sub_uid) WHERE holds AND status = 'open';

CREATE TABLE monitoring_case_notes (
  id          bigserial PRIMARY KEY,
  case_id     uuid NOT NULL REFERENCES monitoring_cases (id),
  author      text NOT NULL,
  body        text NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX monitoring_case_notes_case ON monitoring_case_notes (case_id, id);

-- The ledger records a case concerns (a deposit by orderId, a withdrawal request by id).
CREATE TABLE monitoring_case_records (
  case_id      uuid NOT NULL REFERENCES monitoring_cases (id),
  record_kind  text NOT NULL CHECK (record_kind IN ('deposit', 'withdrawal')),
  record_id    text NOT NULL,
  attached_by  text NOT NULL,
  attached_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (case_id, record_kind, record_id)
);

-- One rule silenced for one sub-account until a time: its evaluation raises nothing for it meanwhile.
CREATE TABLE monitoring_snoozes (
  id          bigserial PRIMARY KEY,
  rule_id     uuid NOT NULL REFERENCES monitoring_rules (id),
  sub_uid     text NOT NULL,
  until       timestamptz NOT NULL,
  reason      text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  created_by  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX monitoring_snoozes_rule_sub ON monitoring_snoozes (rule_id, sub_uid, until DESC);

-- Shared-address rules find every record of one address inside a window.
CREATE INDEX ledger_deposits_from_address ON ledger_deposits (from_address, ctime) WHERE from_address <> '';
CREATE INDEX withdrawal_requests_address ON withdrawal_requests (address, requested_at);

-- A case's page shows its own trail, the audit entries whose target is the case: audit_log_target_id
-- (migration 0027) serves it.

-- How far each sub-account's deposits have been evaluated: what the sync added or changed after this time
-- is evaluated next (jobs.ts).
CREATE TABLE monitoring_watermarks (
  sub_uid             text PRIMARY KEY,
  evaluated_through   timestamptz NOT NULL
);
CREATE INDEX ledger_deposit_changes_seen ON ledger_deposit_changes (seen_at);
CREATE INDEX ledger_deposits_first_seen ON ledger_deposits (sub_uid, first_seen_at);
