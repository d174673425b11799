-- 0009_withdrawals: the requester may cancel their own request while it waits for a decision
-- (withdrawals.cancel). "cancelled" is final, nothing was sent; the time is kept and the requester is the one who
-- cancelled (the workflow and this file both hold to that). The funds check (withdrawal-funds.ts) counts
-- requested, approved, submitted and unknown requests as holding the balance; cancelled ones do not.

ALTER TABLE withdrawal_requests DROP CONSTRAINT withdrawal_requests_state_check;
ALTER TABLE withdrawal_requests ADD CONSTRAINT withdrawal_requests_state_check CHECK (
  state IN ('requested', 'approved', 'submitted', 'confirmed', 'failed', 'unknown', 'rejected', 'cancelled')
);
ALTER TABLE withdrawal_requests ADD COLUMN cancelled_at timestamptz;
ALTER TABLE withdrawal_requests ADD CONSTRAINT withdrawal_cancelled_has_time CHECK (
  (state = 'cancelled') = (cancelled_at IS NOT NULL)
);
-- The sum of pending requests of one sub-account and coin is read under its lock on every request.
CREATE INDEX withdrawal_requests_pending ON withdrawal_requests (sub_uid, coin)
  WHERE state IN ('requested', 'approved', 'submitted', 'unknown');

CREATE OR REPLACE FUNCTION withdrawal_check_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.client_oid IS DISTINCT FROM OLD.client_oid OR NEW.sub_uid IS DISTINCT FROM OLD.sub_uid
     OR NEW.coin IS DISTINCT FROM OLD.coin OR NEW.dest IS DISTINCT FROM OLD.dest
     OR NEW.chain IS DISTINCT FROM OLD.chain OR NEW.address IS DISTINCT FROM OLD.address
     OR NEW.tag IS DISTINCT FROM OLD.tag OR NEW.amount IS DISTINCT FROM OLD.amount
     OR NEW.requested_by IS DISTINCT FROM OLD.requested_by OR NEW.requested_at IS DISTINCT FROM OLD.requested_at
     OR NEW.reason IS DISTINCT FROM OLD.reason THEN
    RAISE EXCEPTION 'withdrawal % : the requested fields cannot change', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF OLD.approved_by IS NOT NULL AND NEW.approved_by IS DISTINCT FROM OLD.approved_by THEN
    RAISE EXCEPTION 'withdrawal % : the approver cannot change', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    RAISE EXCEPTION 'withdrawal % : every change must bump version by one', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  -- As 0003, plus requested -> cancelled (by its requester). confirmed, failed, rejected and cancelled are final.
  IF NOT (
       (OLD.state = 'requested' AND NEW.state IN ('approved', 'rejected', 'cancelled'))
    OR (OLD.state = 'approved' AND NEW.state = 'submitted')
    OR (OLD.state = 'submitted' AND NEW.state IN ('confirmed', 'failed', 'unknown', 'submitted'))
    OR (OLD.state = 'unknown' AND NEW.state = 'submitted')
  ) THEN
    RAISE EXCEPTION 'withdrawal % : % -> % is not a transition of the state machine', OLD.id, OLD.state, NEW.state
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END
$$;

-- The address book of each sub-account: a destination is added by one person and approved by
-- another, as a withdrawal is. A withdrawal to a destination that is not approved here is flagged in the
-- approval queue (not refused: the book is a second check, the lead decides).
CREATE TABLE withdrawal_destinations (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sub_uid        text NOT NULL CHECK (sub_uid ~ '^[0-9]{1,32}$'),
  dest           text NOT NULL CHECK (dest IN ('on_chain', 'internal_transfer')),
  -- On chain: the chain and the tag (empty when the chain needs none); an internal transfer: both empty.
  chain          text NOT NULL DEFAULT '',
  address        text NOT NULL CHECK (length(address) BETWEEN 1 AND 128),
  tag            text NOT NULL DEFAULT '',
  label          text NOT NULL CHECK (length(label) BETWEEN 1 AND 100),
  state          text NOT NULL DEFAULT 'requested' CHECK (state IN ('requested', 'approved', 'rejected')),
  requested_by   text NOT NULL,
  requested_at   timestamptz NOT NULL DEFAULT now(),
  decided_by     text,
  decided_at     timestamptz,
  reject_reason  text,
  CONSTRAINT destination_decider_not_requester CHECK (decided_by IS NULL OR lower(decided_by) <> lower(requested_by)),
  CONSTRAINT destination_decided_has_who CHECK (state = 'requested' OR (decided_by IS NOT NULL AND decided_at IS NOT NULL)),
  CONSTRAINT destination_rejected_has_reason CHECK (state <> 'rejected' OR reject_reason IS NOT NULL)
);
-- One live entry per destination of a sub-account (a rejected one may be asked for again).
CREATE UNIQUE INDEX withdrawal_destinations_one_live ON withdrawal_destinations (sub_uid, dest, chain, address, tag) WHERE state <> 'rejected';
CREATE INDEX withdrawal_destinations_state ON withdrawal_destinations (state, requested_at DESC);
