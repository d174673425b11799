-- 0015_ledger_calls_per_check: how many E1 calls a check of each sub-account takes, as a moving
-- average of its recent checks (a busy desk's recent part can take several pages). The schedule
-- (server/ledger/schedule.ts) divides the sync's share by what checks cost, not by one call each: at one
-- call per check the intervals asked for more than the share, and every check slipped.
ALTER TABLE ledger_sync ADD COLUMN calls_per_check real NOT NULL DEFAULT 1;
