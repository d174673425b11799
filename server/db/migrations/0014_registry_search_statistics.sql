-- 0014_registry_search_statistics: the registry search (a prefix of a name, label or UID, ordered by
-- UID, 21 at a time) must read the three prefix indexes. With the default statistics (100 buckets, 30,000
-- rows sampled) a narrow prefix at 100,000 sub-accounts was estimated at about 1 % of the rows; the planner then
-- sometimes chose to walk the primary key in UID order and filter, which reads the whole registry when the
-- prefix matches little or nothing (seen once in CI). Finer statistics on the indexed expressions (1,000
-- buckets; ANALYZE then samples 300,000 rows, the whole registry up to that size) estimate it near the truth.
ALTER INDEX subaccounts_name_prefix ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX subaccounts_label_prefix ALTER COLUMN 1 SET STATISTICS 1000;
ALTER TABLE subaccounts ALTER COLUMN sub_uid SET STATISTICS 1000;
