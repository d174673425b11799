-- 0011_ledger_retention: Brokerdesk's own retention of the ledger, and what the platform no
-- longer holds.

-- When the sync last found the record missing from an answer that covered its time (the platform forgot it,
-- past its retention, or no longer returns it). The record stays in the ledger; a later sighting clears it.
ALTER TABLE ledger_deposits ADD COLUMN gone_at timestamptz;

-- The verify pass walks the stored history of a sub-account whose backfill is done, one window per run,
-- to find what the platform no longer holds: where the pass stands, and when it last ended.
ALTER TABLE ledger_sync ADD COLUMN verify_before bigint;
ALTER TABLE ledger_sync ADD COLUMN verified_at timestamptz;

-- "Every sub-account, these 90 days, USDT, at least 10,000, success" at a million records and more: the
-- exact count, the totals and the per-day series read the index alone (status and amount included), not a
-- heap page per record; the first page still walks the same index in order. (ledger bench, README.)
DROP INDEX ledger_deposits_coin_time;
CREATE INDEX ledger_deposits_coin_time ON ledger_deposits (coin, ctime DESC, order_id DESC) INCLUDE (status, amount);
DROP INDEX ledger_deposits_time;
CREATE INDEX ledger_deposits_time ON ledger_deposits (ctime DESC, order_id DESC) INCLUDE (coin, status, amount);
