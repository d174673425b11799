-- 0006_ledger: Brokerdesk's own copy of the platform's deposit records, kept by sync jobs, so
-- compliance can search every sub-account over years (the platform answers one sub-account per call, a
-- span of three months at a time).

CREATE TABLE ledger_deposits (
  order_id       text PRIMARY KEY,
  sub_uid        text NOT NULL,
  coin           text NOT NULL,
  -- numeric keeps the platform's decimal exactly (and its scale): amounts are never floats.
  amount         numeric NOT NULL,
  status         text NOT NULL,
  type           text NOT NULL DEFAULT '',
  dest           text NOT NULL DEFAULT '',
  chain          text NOT NULL DEFAULT '',
  from_address   text NOT NULL DEFAULT '',
  to_address     text NOT NULL DEFAULT '',
  tx_id          text NOT NULL DEFAULT '',
  fee            text NOT NULL DEFAULT '',
  confirm        text NOT NULL DEFAULT '',
  tag            text NOT NULL DEFAULT '',
  -- The platform's creation and update times (ms since epoch).
  ctime          bigint NOT NULL,
  utime          bigint,
  first_seen_at  timestamptz NOT NULL DEFAULT now(),
  last_seen_at   timestamptz NOT NULL DEFAULT now()
);
-- "Every sub-account, this range, newest first" and the same per sub-account / per coin; keyset on (ctime, order_id).
CREATE INDEX ledger_deposits_time ON ledger_deposits (ctime DESC, order_id DESC);
CREATE INDEX ledger_deposits_sub_time ON ledger_deposits (sub_uid, ctime DESC, order_id DESC);
CREATE INDEX ledger_deposits_coin_time ON ledger_deposits (coin, ctime DESC, order_id DESC);
CREATE INDEX ledger_deposits_tx ON ledger_deposits (tx_id) WHERE tx_id <> '';

-- Every status a record was seen in, with when it was seen (the first sighting has from_status NULL).
CREATE TABLE ledger_deposit_changes (
  id           bigserial PRIMARY KEY,
  order_id     text NOT NULL REFERENCES ledger_deposits (order_id),
  from_status  text,
  to_status    text NOT NULL,
  seen_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_deposit_changes_order ON ledger_deposit_changes (order_id, id);

-- Where each sync job stands for each sub-account: the backfill's next window, the newest record seen,
-- when it was last checked and is next due, and what went wrong last.
CREATE TABLE ledger_sync (
  job              text NOT NULL,
  sub_uid          text NOT NULL,
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
  PRIMARY KEY (job, sub_uid)
);
CREATE INDEX ledger_sync_due ON ledger_sync (job, next_check_at);
