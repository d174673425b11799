-- Who is alive, and who holds what is in flight, so that a process that dies mid-call (kill -9, a lost
-- machine) leaves nothing behind: its peers, or the next process to start, see its lease lapse and settle
-- what it held at once (server/db/instance-lease.ts, server/workflows/instance-recovery.ts).

-- One row per running Brokerdesk process, renewed on a heartbeat by the database clock. A row whose
-- expires_at has passed belongs to a process that stopped renewing it: dead, or cut off from the database.
CREATE TABLE instance_leases (
  instance_id     text PRIMARY KEY CHECK (length(instance_id) BETWEEN 1 AND 128),
  -- The host and pid namespace it runs in, and its pid: a peer on the same host may see at once that it is gone.
  host            text NOT NULL,
  pid             integer NOT NULL,
  started_at      timestamptz NOT NULL DEFAULT now(),
  renewed_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  -- A peer settling what a lapsed instance held; another peer takes over if this one dies too.
  recovery_by     text,
  recovery_until  timestamptz
);
CREATE INDEX instance_leases_expires_at ON instance_leases (expires_at);

-- The audit intents that have no outcome yet, and which process wrote them. Written in the intent's own
-- transaction and deleted in its outcome's, so a row here is exactly an action that has not been closed.
CREATE TABLE audit_open_intents (
  intent_id    bigint PRIMARY KEY REFERENCES audit_log (id),
  instance_id  text NOT NULL,
  opened_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_open_intents_instance ON audit_open_intents (instance_id);

-- An intent whose process died before it could say how the action ended: closed by the recovery, linked
-- to the reconcile that settled what it was doing.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_outcome_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_outcome_check CHECK (
  outcome IN ('intent', 'success', 'failure', 'refused', 'info', 'interrupted')
);

-- The process that holds a withdrawal's platform call: set when it is approved or claimed for sending,
-- cleared when its outcome is recorded. Not one of the requested fields the transition trigger guards.
ALTER TABLE withdrawal_requests ADD COLUMN held_by text;
CREATE INDEX withdrawal_requests_held_by ON withdrawal_requests (held_by) WHERE held_by IS NOT NULL;
