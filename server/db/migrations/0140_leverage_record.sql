-- 0140_leverage_record: what each account's futures leverage was last set to through Brokerdesk
-- (server/leverage/record.ts). The platform has no operation that reads leverage back (E1–E11), so this record is
-- the only one: the platform's own answer to E10, with who set it, when and why. One row per account, product
-- type, symbol, margin coin and margin mode (a hold side's long and short leverage are both in the answer).
-- `account` is the key name that signed the call ("main", or "sub<UID>" for a sub-account's key); `sub_uid` is
-- that sub-account's UID (NULL for the main account), so the registry joins it.
CREATE TABLE leverage_record (
  account         text        NOT NULL,
  sub_uid         text,
  product_type    text        NOT NULL,
  symbol          text        NOT NULL,
  margin_coin     text        NOT NULL,
  margin_mode     text        NOT NULL,
  long_leverage   text        NOT NULL,
  short_leverage  text        NOT NULL,
  cross_leverage  text        NOT NULL,
  -- What was asked (the request's leverage), and the answer as the platform gave it.
  requested       text        NOT NULL,
  set_by          text        NOT NULL,
  set_at          timestamptz NOT NULL,
  reason          text        NOT NULL DEFAULT '',
  -- The audit intent of the call that set it, and the plan it belonged to, if any.
  intent_id       text,
  plan_id         text,
  PRIMARY KEY (account, product_type, symbol, margin_coin, margin_mode)
);
CREATE INDEX leverage_record_sub ON leverage_record (sub_uid) WHERE sub_uid IS NOT NULL;
CREATE INDEX leverage_record_symbol ON leverage_record (symbol, product_type);
