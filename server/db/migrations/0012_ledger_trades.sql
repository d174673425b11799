-- 0012_ledger_trades: fills (E4) and plan orders (E3) of each configured platform key, kept by
-- sync jobs so their history outlives the platform's 90 days. Keyed by the key's name and the platform's
-- ID: two keys of one account see the same fill, and each keeps its own copy of what it was shown.

CREATE TABLE ledger_fills (
  key_name             text NOT NULL,
  trade_id             text NOT NULL,
  order_id             text NOT NULL,
  user_id              text NOT NULL DEFAULT '',
  symbol               text NOT NULL,
  order_type           text NOT NULL DEFAULT '',
  side                 text NOT NULL DEFAULT '',
  -- numeric keeps the platform's decimals exactly; NULL where the platform sent an empty string.
  price_avg            numeric,
  size                 numeric,
  amount               numeric,
  fee_coin             text NOT NULL DEFAULT '',
  total_fee            numeric,
  fee_deduction        text NOT NULL DEFAULT '',
  total_deduction_fee  numeric,
  trade_scope          text NOT NULL DEFAULT '',
  ctime                bigint NOT NULL,
  utime                bigint,
  first_seen_at        timestamptz NOT NULL DEFAULT now(),
  last_seen_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key_name, trade_id)
);
-- Keyset on (ctime, trade_id), newest first, for one key and optionally one symbol or one order.
CREATE INDEX ledger_fills_time ON ledger_fills (key_name, ctime DESC, trade_id DESC);
CREATE INDEX ledger_fills_symbol_time ON ledger_fills (key_name, symbol, ctime DESC, trade_id DESC);
CREATE INDEX ledger_fills_order ON ledger_fills (key_name, order_id);

CREATE TABLE ledger_plan_orders (
  key_name            text NOT NULL,
  order_id            text NOT NULL,
  client_oid          text NOT NULL DEFAULT '',
  symbol              text NOT NULL,
  trigger_price       numeric,
  execute_price       numeric,
  order_type          text NOT NULL DEFAULT '',
  plan_type           text NOT NULL DEFAULT '',
  size                numeric,
  status              text NOT NULL,
  side                text NOT NULL DEFAULT '',
  trigger_type        text NOT NULL DEFAULT '',
  enter_point_source  text NOT NULL DEFAULT '',
  ctime               bigint NOT NULL,
  utime               bigint,
  first_seen_at       timestamptz NOT NULL DEFAULT now(),
  last_seen_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key_name, order_id)
);
CREATE INDEX ledger_plan_orders_time ON ledger_plan_orders (key_name, ctime DESC, order_id DESC);
CREATE INDEX ledger_plan_orders_symbol_time ON ledger_plan_orders (key_name, symbol, ctime DESC, order_id DESC);
-- The re-check of orders whose status can still change (not yet triggered).
CREATE INDEX ledger_plan_orders_open ON ledger_plan_orders (key_name, symbol, ctime) WHERE status = 'not_trigger';

-- Every status a plan order was seen in, with when (the first sighting has from_status NULL).
CREATE TABLE ledger_plan_order_changes (
  id           bigserial PRIMARY KEY,
  key_name     text NOT NULL,
  order_id     text NOT NULL,
  from_status  text,
  to_status    text NOT NULL,
  seen_at      timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (key_name, order_id) REFERENCES ledger_plan_orders (key_name, order_id)
);
CREATE INDEX ledger_plan_order_changes_order ON ledger_plan_order_changes (key_name, order_id, id);

-- Where each key's sync stands, per job ("fills", "plan-orders") and symbol ('' for fills, which E4
-- answers across symbols): as ledger_sync does for a sub-account's deposits.
CREATE TABLE ledger_key_sync (
  job              text NOT NULL,
  key_name         text NOT NULL,
  symbol           text NOT NULL DEFAULT '',
  backfill_done    boolean NOT NULL DEFAULT false,
  backfill_before  bigint,
  empty_windows    integer NOT NULL DEFAULT 0,
  newest_ctime     bigint,
  last_checked_at  timestamptz,
  last_success_at  timestamptz,
  next_check_at    timestamptz NOT NULL DEFAULT now(),
  records          bigint NOT NULL DEFAULT 0,
  calls            bigint NOT NULL DEFAULT 0,
  errors           integer NOT NULL DEFAULT 0,
  last_error       text,
  PRIMARY KEY (job, key_name, symbol)
);
CREATE INDEX ledger_key_sync_due ON ledger_key_sync (job, next_check_at);

-- Daily snapshots of each registry sub-account's spot assets (E2) and rebate info (E7): the platform answers
-- only the present (and keeps rebate info 30 days), so balance and rebate history exist only if kept here.
-- One snapshot per UTC day; a rerun the same day replaces it. The sync's state is in ledger_sync (jobs
-- "assets-snapshot" and "rebate-snapshot"), each due again at the next UTC midnight.
CREATE TABLE ledger_snapshot_days (
  job       text NOT NULL,
  sub_uid   text NOT NULL,
  day       date NOT NULL,
  taken_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job, sub_uid, day)
);

CREATE TABLE ledger_asset_snapshots (
  sub_uid    text NOT NULL,
  day        date NOT NULL,
  coin       text NOT NULL,
  available  numeric,
  frozen     numeric,
  locked     numeric,
  utime      bigint,
  PRIMARY KEY (sub_uid, day, coin)
);

CREATE TABLE ledger_rebate_snapshots (
  sub_uid               text NOT NULL,
  day                   date NOT NULL,
  affiliation_type      text NOT NULL DEFAULT '',
  user_level            text NOT NULL DEFAULT '',
  spot_rebate_ratio     numeric,
  futures_rebate_ratio  numeric,
  PRIMARY KEY (sub_uid, day)
);

-- The registry searched as one types, at 100,000 sub-accounts and more: by the start of the name,
-- the label or the UID, case-insensitive. Prefix ranges on text_pattern_ops b-trees, which PostgreSQL and
-- PGlite both have (pg_trgm would need an extension PGlite does not load by default).
CREATE INDEX subaccounts_name_prefix ON subaccounts (lower(subaccount_name) text_pattern_ops);
CREATE INDEX subaccounts_label_prefix ON subaccounts (lower(label) text_pattern_ops);
CREATE INDEX subaccounts_uid_prefix ON subaccounts (sub_uid text_pattern_ops);
