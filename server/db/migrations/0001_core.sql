-- 0001_core: the sub-account registry, withdrawal requests, risk-unit bindings, export jobs and the
-- append-only, hash-chained audit log. Plain SQL that runs unchanged on PGlite (PostgreSQL 17) and on
-- PostgreSQL 15+; applied once, inside one transaction, by server/db/migrate.ts.

-- Sub-accounts: the platform has no "list sub-accounts" operation, so Brokerdesk keeps the registry.
CREATE TABLE subaccounts (
  sub_uid          text PRIMARY KEY CHECK (sub_uid ~ '^[0-9]{1,32}$'),
  subaccount_name  text UNIQUE,
  label            text,
  status           text NOT NULL DEFAULT 'normal',
  perm_list        text[] NOT NULL DEFAULT '{}',
  source           text NOT NULL CHECK (source IN ('created', 'added', 'simulator-seed')),
  -- Platform creation time as the platform's millisecond string, kept verbatim (no float round trip).
  platform_ctime   text CHECK (platform_ctime IS NULL OR platform_ctime ~ '^[0-9]{1,16}$'),
  created_by       text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);

-- Withdrawal requests and their state machine:
--   requested -> approved -> submitted -> confirmed | failed | unknown, or requested -> rejected.
CREATE TABLE withdrawal_requests (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Minted when requested and sent with the platform call, so a retried submit can never pay twice.
  client_oid         text NOT NULL UNIQUE CHECK (client_oid ~ '^[A-Za-z0-9_-]{1,64}$'),
  sub_uid            text NOT NULL CHECK (sub_uid ~ '^[0-9]{1,32}$'),
  coin               text NOT NULL,
  dest               text NOT NULL CHECK (dest IN ('on_chain', 'internal_transfer')),
  chain              text,
  address            text NOT NULL,
  tag                text,
  -- Money is a decimal string end to end (never numeric/float here): a positive decimal, no exponent.
  amount             text NOT NULL CHECK (
                       amount ~ '^(0|[1-9][0-9]{0,29})(\.[0-9]{1,30})?$'
                       AND amount !~ '^0(\.0+)?$'
                     ),
  reason             text NOT NULL CHECK (length(reason) > 0),
  state              text NOT NULL DEFAULT 'requested' CHECK (
                       state IN ('requested', 'approved', 'submitted', 'confirmed', 'failed', 'unknown', 'rejected')
                     ),
  requested_by       text NOT NULL,
  requested_at       timestamptz NOT NULL DEFAULT now(),
  approved_by        text,
  approved_at        timestamptz,
  rejected_by        text,
  rejected_at        timestamptz,
  reject_reason      text,
  submitted_at       timestamptz,
  settled_at         timestamptz,
  platform_order_id  text UNIQUE,
  error_code         text,
  error_msg          text,
  -- Optimistic concurrency: every transition is UPDATE ... WHERE id = $1 AND version = $2.
  version            integer NOT NULL DEFAULT 0,
  -- Two-person rule, enforced by the database as well as by the workflow.
  CONSTRAINT withdrawal_approver_not_requester CHECK (approved_by IS NULL OR approved_by <> requested_by),
  CONSTRAINT withdrawal_rejecter_not_requester CHECK (rejected_by IS NULL OR rejected_by <> requested_by),
  -- No state past "requested" (except rejected) without a recorded approver, and no rejection without who/why.
  CONSTRAINT withdrawal_approved_has_approver CHECK (
    state NOT IN ('approved', 'submitted', 'confirmed', 'failed', 'unknown') OR (approved_by IS NOT NULL AND approved_at IS NOT NULL)
  ),
  CONSTRAINT withdrawal_rejected_has_rejecter CHECK (
    state <> 'rejected' OR (rejected_by IS NOT NULL AND rejected_at IS NOT NULL AND reject_reason IS NOT NULL)
  )
);
CREATE INDEX withdrawal_requests_state_requested_at ON withdrawal_requests (state, requested_at DESC);
CREATE INDEX withdrawal_requests_sub_uid_requested_at ON withdrawal_requests (sub_uid, requested_at DESC);
CREATE INDEX withdrawal_requests_requested_at ON withdrawal_requests (requested_at DESC, id);

-- Risk-unit bindings made through Brokerdesk (history kept: unbinding closes the row, it is not deleted).
CREATE TABLE risk_unit_bindings (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  risk_unit_id  text NOT NULL CHECK (risk_unit_id ~ '^[0-9]{1,32}$'),
  uid           text NOT NULL CHECK (uid ~ '^[0-9]{1,32}$'),
  state         text NOT NULL DEFAULT 'bound' CHECK (state IN ('bound', 'unbound')),
  bound_by      text NOT NULL,
  bound_at      timestamptz NOT NULL DEFAULT now(),
  unbound_by    text,
  unbound_at    timestamptz,
  CONSTRAINT risk_unit_binding_unbound_has_who CHECK (state = 'bound' OR (unbound_by IS NOT NULL AND unbound_at IS NOT NULL))
);
-- A UID belongs to at most one risk unit at a time.
CREATE UNIQUE INDEX risk_unit_bindings_one_bound_per_uid ON risk_unit_bindings (uid) WHERE state = 'bound';
CREATE INDEX risk_unit_bindings_risk_unit ON risk_unit_bindings (risk_unit_id, state);

-- Export jobs (long CSV exports walking time windows of one operation).
CREATE TABLE export_jobs (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  operation      text NOT NULL,
  params         jsonb NOT NULL DEFAULT '{}'::jsonb,
  requested_by   text NOT NULL,
  state          text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
  records        integer NOT NULL DEFAULT 0 CHECK (records >= 0),
  windows_done   integer NOT NULL DEFAULT 0 CHECK (windows_done >= 0),
  windows_total  integer CHECK (windows_total IS NULL OR windows_total >= 0),
  error          text,
  started_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz
);
CREATE INDEX export_jobs_requested_by_started_at ON export_jobs (requested_by, started_at DESC);

-- The audit log. Ids are assigned from audit_head under its row lock (not from a sequence): a sequence
-- leaves gaps on rollback, and here a gap must mean a deleted row. See server/audit/audit-log.ts.
CREATE TABLE audit_log (
  id          bigint PRIMARY KEY CHECK (id > 0),
  at          timestamptz NOT NULL,
  actor       text NOT NULL CHECK (length(actor) > 0),
  actor_role  text,
  action      text NOT NULL,
  outcome     text NOT NULL CHECK (outcome IN ('intent', 'success', 'failure', 'refused', 'info')),
  target      text,
  params      jsonb,
  detail      jsonb,
  request_id  text,
  ip          text,
  -- An outcome row points at its intent row.
  intent_id   bigint REFERENCES audit_log (id) CHECK (intent_id IS NULL OR intent_id < id),
  prev_hash   text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
  hash        text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$')
);
CREATE INDEX audit_log_at ON audit_log (at DESC);
CREATE INDEX audit_log_actor_id ON audit_log (lower(actor), id DESC);
CREATE INDEX audit_log_action_id ON audit_log (action, id DESC);
CREATE INDEX audit_log_outcome_id ON audit_log (outcome, id DESC);
CREATE INDEX audit_log_intent ON audit_log (intent_id) WHERE intent_id IS NOT NULL;

-- The chain head: one row, locked FOR UPDATE by every append, so appends from any number of
-- connections or app instances are serialised by the database into one chain.
CREATE TABLE audit_head (
  id         integer PRIMARY KEY CHECK (id = 1),
  last_id    bigint NOT NULL CHECK (last_id >= 0),
  -- Genesis: 64 zeros (AUDIT_GENESIS_HASH in server/audit/hash.ts).
  last_hash  text NOT NULL CHECK (last_hash ~ '^[0-9a-f]{64}$')
);
INSERT INTO audit_head (id, last_id, last_hash) VALUES (1, 0, repeat('0', 64));

CREATE FUNCTION audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_log_refuse_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_log_refuse_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_head_refuse_delete BEFORE DELETE ON audit_head
  FOR EACH ROW EXECUTE FUNCTION audit_refuse_change();
CREATE TRIGGER audit_head_refuse_truncate BEFORE TRUNCATE ON audit_head
  FOR EACH STATEMENT EXECUTE FUNCTION audit_refuse_change();

-- Every insert must extend the head (next id, previous hash), and the head may only move forward by the
-- row just inserted: code that bypasses appendAudit cannot fork or rewind the chain.
CREATE FUNCTION audit_log_check_link() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head audit_head%ROWTYPE;
BEGIN
  SELECT * INTO head FROM audit_head WHERE id = 1;
  IF NEW.id <> head.last_id + 1 OR NEW.prev_hash <> head.last_hash THEN
    RAISE EXCEPTION 'audit_log insert does not extend the chain head (id %, head %)', NEW.id, head.last_id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER audit_log_check_link BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_check_link();

CREATE FUNCTION audit_head_check_advance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id <> OLD.id OR NEW.last_id <> OLD.last_id + 1
     OR NOT EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.last_id AND hash = NEW.last_hash AND prev_hash = OLD.last_hash) THEN
    RAISE EXCEPTION 'audit_head may only advance to the row just appended' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER audit_head_check_advance BEFORE UPDATE ON audit_head
  FOR EACH ROW EXECUTE FUNCTION audit_head_check_advance();

-- On a real server the table owner could still bypass the above; the application should connect as a
-- non-owner role (server/audit/README.md shows how). For everyone else, no change rights at all.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM PUBLIC;
REVOKE DELETE, TRUNCATE ON audit_head FROM PUBLIC;
