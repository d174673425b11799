-- 0105_travel_rule: the Travel Rule's data. The registry's sub-accounts gain their holder (an IVMS101 person,
-- natural or legal: the originator of their withdrawals); a withdrawal request keeps its IVMS101 payload as it
-- was when requested (the originator copied, not referenced), immutable like the rest of what was requested;
-- and compliance may attach the originator's data to a deposit the ledger holds.

ALTER TABLE subaccounts ADD COLUMN holder jsonb;
ALTER TABLE subaccounts ADD COLUMN holder_updated_by text;
ALTER TABLE subaccounts ADD COLUMN holder_updated_at timestamptz;

-- NULL: the rule did not apply (an internal transfer, a value below the threshold, or a request made before
-- the rule); otherwise { ivms101, selfHostedWallet, thresholdUsdt, valueUsdt }.
ALTER TABLE withdrawal_requests ADD COLUMN travel_rule jsonb;

-- As 0009, plus the Travel Rule's payload among what cannot change once requested.
CREATE OR REPLACE FUNCTION withdrawal_check_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.client_oid IS DISTINCT FROM OLD.client_oid OR NEW.sub_uid IS DISTINCT FROM OLD.sub_uid
     OR NEW.coin IS DISTINCT FROM OLD.coin OR NEW.dest IS DISTINCT FROM OLD.dest
     OR NEW.chain IS DISTINCT FROM OLD.chain OR NEW.address IS DISTINCT FROM OLD.address
     OR NEW.tag IS DISTINCT FROM OLD.tag OR NEW.amount IS DISTINCT FROM OLD.amount
     OR NEW.requested_by IS DISTINCT FROM OLD.requested_by OR NEW.requested_at IS DISTINCT FROM OLD.requested_at
     OR NEW.reason IS DISTINCT FROM OLD.reason OR NEW.travel_rule IS DISTINCT FROM OLD.travel_rule THEN
    RAISE EXCEPTION 'withdrawal % : the requested fields cannot change', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF OLD.approved_by IS NOT NULL AND NEW.approved_by IS DISTINCT FROM OLD.approved_by THEN
    RAISE EXCEPTION 'withdrawal % : the approver cannot change', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    RAISE EXCEPTION 'withdrawal % : every change must bump version by one', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
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

-- The originator of a deposit, as compliance recorded it (an IVMS101 originator: persons and account numbers,
-- and the originating VASP where known). One row per deposit; a new record replaces the old, each one audited.
CREATE TABLE deposit_originators (
  order_id     text PRIMARY KEY REFERENCES ledger_deposits (order_id),
  originator   jsonb NOT NULL,
  recorded_by  text NOT NULL,
  recorded_at  timestamptz NOT NULL DEFAULT now()
);
