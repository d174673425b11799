-- 0045_ledger_key_coverage: what the ledger holds completely of a key's fills (per key) and plan orders (per
-- key and symbol), as data, as 0021 keeps it for a sub-account's deposits: the span [covered_from,
-- covered_to] (ms, both included) for which the ledger holds every record the platform returned, written in
-- the transaction of the last page of the walk that completed it, so a walk cut short (a fault, a kill -9)
-- claims nothing. covered_from is 0 once the plan-order backfill found the start of the history; fills never
-- reach 0, as E4 forgets what is older than 90 days.
ALTER TABLE ledger_key_sync ADD COLUMN covered_from bigint;
ALTER TABLE ledger_key_sync ADD COLUMN covered_to bigint;
