-- The money-out policy: ordered rules deciding how many approvals from which roles a withdrawal needs
-- (server/policy/). Versions are drafted by an admin and published by another (with a fresh factor); at
-- most one is published at a time, and none published means the default (one lead). Each withdrawal keeps
-- the version and rule that decided it and what they required; its approvals are rows of their own.

CREATE TABLE money_out_policies (
  -- 1, 2, … in the order drafted.
  version       integer PRIMARY KEY CHECK (version > 0),
  state         text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'published', 'superseded', 'discarded')),
  -- The rules as lib/policy.ts's policyRulesSchema parses them (checked before every write).
  rules         jsonb NOT NULL,
  note          text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  drafted_by    text NOT NULL,
  drafted_at    timestamptz NOT NULL DEFAULT now(),
  published_by  text,
  published_at  timestamptz,
  superseded_at timestamptz,
  CONSTRAINT policy_publisher_not_author CHECK (published_by IS NULL OR lower(published_by) <> lower(drafted_by)),
  CONSTRAINT policy_published_has_who CHECK (
    state IN ('draft', 'discarded') OR (published_by IS NOT NULL AND published_at IS NOT NULL)
  )
);
CREATE UNIQUE INDEX money_out_policies_one_published ON money_out_policies ((true)) WHERE state = 'published';

-- What decided each withdrawal when it was requested. NULL version: no policy was published (the default).
ALTER TABLE withdrawal_requests ADD COLUMN policy_version integer;
ALTER TABLE withdrawal_requests ADD COLUMN policy_rule text;
-- The approvals the rule asked for, [{"role": "lead", "count": 1}, ...]; NULL on rows older than the policy
-- (they needed one lead).
ALTER TABLE withdrawal_requests ADD COLUMN policy_approvals jsonb;
-- The amount's USDT value the policy saw (a decimal string), NULL when the day had no price.
ALTER TABLE withdrawal_requests ADD COLUMN value_usdt text;

-- What the policy decided is part of the request: it cannot change afterwards.
CREATE FUNCTION withdrawal_policy_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.policy_version IS DISTINCT FROM OLD.policy_version OR NEW.policy_rule IS DISTINCT FROM OLD.policy_rule
     OR NEW.policy_approvals IS DISTINCT FROM OLD.policy_approvals OR NEW.value_usdt IS DISTINCT FROM OLD.value_usdt THEN
    RAISE EXCEPTION 'withdrawal % : what the policy decided cannot change', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER withdrawal_policy_fixed AFTER UPDATE ON withdrawal_requests
  FOR EACH ROW EXECUTE FUNCTION withdrawal_policy_fixed();

-- Each approval of a withdrawal that needs several: one per person, never the requester's.
CREATE TABLE withdrawal_approvals (
  withdrawal_id  uuid NOT NULL REFERENCES withdrawal_requests (id),
  approver       text NOT NULL,
  role           text NOT NULL,
  approved_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX withdrawal_approvals_one_per_person ON withdrawal_approvals (withdrawal_id, lower(approver));

CREATE FUNCTION withdrawal_approval_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'withdrawal_approvals is a ledger: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF EXISTS (SELECT 1 FROM withdrawal_requests w WHERE w.id = NEW.withdrawal_id AND lower(w.requested_by) = lower(NEW.approver)) THEN
    RAISE EXCEPTION 'withdrawal % : the requester cannot approve it', NEW.withdrawal_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER withdrawal_approval_check BEFORE INSERT OR UPDATE OR DELETE ON withdrawal_approvals
  FOR EACH ROW EXECUTE FUNCTION withdrawal_approval_check();

-- Velocity windows: a sub-account's requests by time.
CREATE INDEX IF NOT EXISTS withdrawal_requests_sub_uid_coin_requested_at ON withdrawal_requests (sub_uid, coin, requested_at DESC);
