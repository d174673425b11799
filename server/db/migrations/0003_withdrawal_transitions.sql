-- 0003_withdrawal_transitions: the withdrawal state machine enforced by the database, not only by the
-- workflow, so that whatever code runs an UPDATE, a request cannot skip a
-- state, leave a final state, or change what was approved after it was requested.

-- Outcomes carry their evidence: the platform's orderId, or its code; nothing is "sent" without a time.
ALTER TABLE withdrawal_requests
  ADD CONSTRAINT withdrawal_confirmed_has_order CHECK (state <> 'confirmed' OR platform_order_id IS NOT NULL),
  ADD CONSTRAINT withdrawal_failed_has_error CHECK (state <> 'failed' OR error_code IS NOT NULL),
  ADD CONSTRAINT withdrawal_sent_has_submitted_at CHECK (
    state NOT IN ('submitted', 'confirmed', 'failed', 'unknown') OR submitted_at IS NOT NULL
  );

CREATE INDEX withdrawal_requests_requested_by_requested_at ON withdrawal_requests (requested_by, requested_at DESC);

CREATE FUNCTION withdrawal_check_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- What the requester asked for and the approver confirmed is what is sent, every time (a resend with the
  -- same clientOid must carry identical parameters or the platform refuses it).
  IF NEW.client_oid IS DISTINCT FROM OLD.client_oid OR NEW.sub_uid IS DISTINCT FROM OLD.sub_uid
     OR NEW.coin IS DISTINCT FROM OLD.coin OR NEW.dest IS DISTINCT FROM OLD.dest
     OR NEW.chain IS DISTINCT FROM OLD.chain OR NEW.address IS DISTINCT FROM OLD.address
     OR NEW.tag IS DISTINCT FROM OLD.tag OR NEW.amount IS DISTINCT FROM OLD.amount
     OR NEW.requested_by IS DISTINCT FROM OLD.requested_by OR NEW.requested_at IS DISTINCT FROM OLD.requested_at
     OR NEW.reason IS DISTINCT FROM OLD.reason THEN
    RAISE EXCEPTION 'withdrawal % : the requested fields cannot change', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  -- Once approved, the approver is fixed.
  IF OLD.approved_by IS NOT NULL AND NEW.approved_by IS DISTINCT FROM OLD.approved_by THEN
    RAISE EXCEPTION 'withdrawal % : the approver cannot change', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    RAISE EXCEPTION 'withdrawal % : every change must bump version by one', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  -- requested -> approved | rejected; approved -> submitted; submitted -> confirmed | failed | unknown;
  -- unknown -> submitted (reconcile resends with the same clientOid); submitted -> submitted (a reconcile
  -- that takes over a submit whose process died). confirmed, failed and rejected are final.
  IF NOT (
       (OLD.state = 'requested' AND NEW.state IN ('approved', 'rejected'))
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

-- AFTER, so the row's CHECK constraints (who approved, who rejected) report first and by name.
CREATE TRIGGER withdrawal_check_transition AFTER UPDATE ON withdrawal_requests
  FOR EACH ROW EXECUTE FUNCTION withdrawal_check_transition();

-- Withdrawal requests are the ledger compliance reads: never deleted.
CREATE FUNCTION withdrawal_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'withdrawal_requests is a ledger: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER withdrawal_refuse_delete BEFORE DELETE ON withdrawal_requests
  FOR EACH ROW EXECUTE FUNCTION withdrawal_refuse_delete();
