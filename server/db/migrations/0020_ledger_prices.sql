-- A daily price of each coin in USDT, kept by the ledger's sync from the platform's public trades of COINUSDT
-- (E8, the day's last trade), so deposits and withdrawals of different coins can be valued, filtered and
-- compared in one unit. USDT itself is 1 and is not stored.

CREATE TABLE ledger_coin_prices (
  coin        text NOT NULL,
  -- The UTC day the price is for.
  day         date NOT NULL,
  usdt        numeric NOT NULL CHECK (usdt > 0),
  -- The trade the price was taken from (E8's tradeId and its time, ms since epoch).
  trade_id    text NOT NULL,
  trade_ts    bigint NOT NULL,
  fetched_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (coin, day)
);
