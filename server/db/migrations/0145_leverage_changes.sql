-- 0145_leverage_changes: a single leverage change the leverage policy sent to a second lead
-- (server/leverage/changes.ts), and the record's newest-first order (server/leverage/record.ts).
-- A change waits until another lead (not its requester, in good standing, with a fresh second factor) approves it;
-- only then is E10 called, and the record written from the platform's answer. Its requester may withdraw it and
-- another lead may reject it; nothing is sent then. `request` is E10's request exactly as it will be sent.
CREATE TABLE leverage_changes (
  id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
  account         text        NOT NULL,
  sub_uid         text,
  product_type    text        NOT NULL,
  symbol          text        NOT NULL,
  leverage        text        NOT NULL,
  request         jsonb       NOT NULL,
  reason          text        NOT NULL,
  requested_by    text        NOT NULL,
  requested_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- The policy's verdict that sent it to a second lead: which version and rule, and why (in words).
  policy_version  integer,
  policy_rule     text        NOT NULL,
  policy_why      text        NOT NULL,
  state           text        NOT NULL DEFAULT 'waiting'
                  CHECK (state IN ('waiting', 'approved', 'sent', 'failed', 'rejected', 'withdrawn')),
  decided_by      text,
  decided_at      timestamptz,
  reject_reason   text,
  -- After the approval: the platform's answer (sent) or what went wrong (failed).
  answer          jsonb,
  failure         text,
  -- The two-person rule where it cannot be raced: an approval or a rejection is never the requester's.
  CHECK (state NOT IN ('approved', 'sent', 'failed', 'rejected') OR lower(decided_by) <> lower(requested_by))
);
CREATE INDEX leverage_changes_waiting ON leverage_changes (requested_at) WHERE state = 'waiting';
CREATE INDEX leverage_changes_sub ON leverage_changes (sub_uid, requested_at DESC);
-- The record, newest first (keyset paging on the set time and the primary key).
CREATE INDEX leverage_record_set_at
  ON leverage_record (set_at DESC, account DESC, product_type DESC, symbol DESC, margin_coin DESC, margin_mode DESC);
