-- 0021_ledger_coverage: what the ledger holds completely, as data. For each sub-account and synced job, the
-- span [covered_from, covered_to] (ms, both included) for which the ledger holds every record the platform
-- returned: written in the same transaction as the last page of the walk that completed it, so it is exact
-- after any fault or kill -9 (a walk cut short claims nothing). covered_from is 0 once the backfill found the
-- start of the history (nothing older on the platform).
ALTER TABLE ledger_sync ADD COLUMN covered_from bigint;
ALTER TABLE ledger_sync ADD COLUMN covered_to bigint;
-- Backfill windows walked so far: the backfill goes one window deeper for every sub-account before any goes
-- two (the newest three months of all first), so the sweep compares each one's depth with the shallowest's.
ALTER TABLE ledger_sync ADD COLUMN backfill_windows integer NOT NULL DEFAULT 0;
-- A staff member opened, searched for or asked to check the sub-account: its whole history goes ahead of the
-- queue. Cleared when a run of it ends with its history complete.
ALTER TABLE ledger_sync ADD COLUMN priority_at timestamptz;
CREATE INDEX ledger_sync_priority ON ledger_sync (job, priority_at) WHERE priority_at IS NOT NULL;
