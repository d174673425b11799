-- 0065_monitoring_coverage: monitoring judges only what the ledger holds. A rule kind needs a span of the
-- sub-account's deposits (its whole history, or a window before each record) before an absence counts as
-- evidence; evaluation raises only where ledger_sync's covered span holds it (server/monitoring/kinds/sql.ts).

-- The coverage an alert was raised under: what its rule needed ("none", "history", "window" and its span in
-- ms) and the sub-account's covered deposits then (from/to in ms; from 0: the whole history). NULL for alerts
-- raised before this migration.
ALTER TABLE monitoring_alerts ADD COLUMN coverage jsonb;

-- The sub-account's covered span as of its last batch evaluation: a batch that finds it grown evaluates
-- again what was waiting for it (server/monitoring/jobs.ts), even when the sync brought no new record.
ALTER TABLE monitoring_watermarks ADD COLUMN covered_from bigint;
ALTER TABLE monitoring_watermarks ADD COLUMN covered_to bigint;
