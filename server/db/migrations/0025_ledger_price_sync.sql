-- Where the daily price sync stands for each coin (server/ledger/prices-sync.ts): when it is next due, what
-- its last run saw, and whether the platform has a COINUSDT market at all (E8 refused the symbol: the coin
-- has no price, said so on the pages rather than guessed). A row per coin the ledger holds deposits of.
CREATE TABLE ledger_price_sync (
  coin             text PRIMARY KEY,
  next_check_at    timestamptz NOT NULL DEFAULT now(),
  last_checked_at  timestamptz,
  last_success_at  timestamptz,
  -- E8 refused COINUSDT as an unknown symbol at the last check: no market, so no price.
  no_market        boolean NOT NULL DEFAULT false,
  calls            bigint NOT NULL DEFAULT 0,
  errors           integer NOT NULL DEFAULT 0,
  last_error       text
);
CREATE INDEX ledger_price_sync_due ON ledger_price_sync (next_check_at);

-- Each deposit valued in USDT at its UTC day's price: USDT is 1; a coin or day without a price is NULL
-- ("no price"), never 0. What monitoring rules and any other reader of values use, besides
-- server/ledger/prices.ts's fragment (the same expression).
CREATE VIEW ledger_deposit_values AS
SELECT d.order_id, d.sub_uid, d.coin, d.amount, d.status, d.ctime,
       CASE WHEN d.coin = 'USDT' THEN d.amount ELSE d.amount * p.usdt END AS value_usdt,
       CASE WHEN d.coin = 'USDT' THEN 1::numeric ELSE p.usdt END AS price_usdt
  FROM ledger_deposits d
  LEFT JOIN ledger_coin_prices p ON p.coin = d.coin AND p.day = DATE '1970-01-01' + (d.ctime / 86400000)::int;
