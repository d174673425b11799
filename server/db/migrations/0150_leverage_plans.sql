-- 0150_leverage_plans: changes of futures leverage planned across many sub-accounts (server/leverage/plans/).
-- A plan is its targets (one sub-account and symbol each, with the leverage asked), chosen by a filter over the
-- registry and the leverage record, an uploaded CSV or a hand-made list, with what each was set to when the plan
-- was made (the preview), and whether a key of the sub-account existed then (targets without one are kept apart
-- and never sent). The policy's verdict is kept with it; a plan that needs a second lead waits for one.
CREATE TABLE leverage_plans (
  id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
  product_type  text        NOT NULL,
  margin_coin   text        NOT NULL,
  source        text        NOT NULL CHECK (source IN ('filter', 'csv', 'list')),
  -- What the targets were chosen with (the filter, or the upload's size): said on the page and in the audit.
  selection     jsonb       NOT NULL,
  reason        text        NOT NULL,
  -- waiting: for a second lead; ready: may start; running: the rollout job sends; paused; cancelled; done.
  state         text        NOT NULL CHECK (state IN ('waiting', 'ready', 'running', 'paused', 'cancelled', 'done')),
  verdict       jsonb       NOT NULL,
  created_by    text        NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  approved_by   text,
  approved_at   timestamptz,
  started_by    text,
  started_at    timestamptz,
  finished_at   timestamptz,
  -- The instance whose rollout job sends it, and when that job last said it was alive: a silent one is resumed.
  runner        text,
  heartbeat_at  timestamptz
);
CREATE INDEX leverage_plans_created ON leverage_plans (created_at DESC);
CREATE INDEX leverage_plans_running ON leverage_plans (state) WHERE state = 'running';

-- One target each. A target is claimed (state sending, its audit intent written in the same transaction) before
-- its call; a target found sending by a later run may have reached the platform and is never sent again by it
-- (state unknown), so no target is sent twice.
CREATE TABLE leverage_plan_targets (
  plan_id      uuid        NOT NULL REFERENCES leverage_plans (id) ON DELETE CASCADE,
  ord          integer     NOT NULL,
  sub_uid      text        NOT NULL,
  symbol       text        NOT NULL,
  leverage     text        NOT NULL,
  -- The key that signs its call ("sub<UID>"); NULL: no key when the plan was made (listed apart, never sent).
  key_name     text,
  -- What the leverage record held for it when the plan was made (NULL: nothing set through Brokerdesk).
  current      text,
  state        text        NOT NULL CHECK (state IN ('pending', 'sending', 'done', 'failed', 'unknown', 'no-key',
                                                     'cancelled')),
  intent_id    bigint,
  sends        integer     NOT NULL DEFAULT 0,
  code         text,
  message      text,
  answer       jsonb,
  claimed_by   text,
  sent_at      timestamptz,
  answered_at  timestamptz,
  PRIMARY KEY (plan_id, ord),
  UNIQUE (plan_id, sub_uid, symbol)
);
CREATE INDEX leverage_plan_targets_state ON leverage_plan_targets (plan_id, state, ord);
